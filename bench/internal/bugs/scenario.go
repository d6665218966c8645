package bugs

import (
	"strings"

	"github.com/morpheus-go/morpheus"
)

// Scenario is one bug of the suite: a small system with the bug, the switch
// that fixes it, and what counts as finding it.
type Scenario struct {
	// Name is the scenario's name in tables and on the command line
	// (bench bugs -only NAME).
	Name string
	// Source says where the bug comes from.
	Source string
	// Test returns the scenario's test: the system with the bug, or with
	// its fix when fixed is true.
	Test func(fixed bool) func(*morpheus.Env)
	// Hit reports whether a failure (its kind and message, as in
	// morpheus.Failure) is the scenario's intended failure. Any other failure
	// of the buggy system is not a hit, and any failure at all of the fixed
	// system is a defect of the scenario.
	Hit func(kind, message string) bool
	// Options are the limits the scenario needs (clock limit, step limit).
	Options []morpheus.Option

	// build makes Test for a variant (see built and WithWork); nil for
	// scenarios whose system lives outside this package.
	build func(variant) func(*morpheus.Env)
}

// All returns the suite: the seven message-passing scenarios, in the order
// of their specification (docs/bug-suite.md).
func All() []Scenario {
	return []Scenario{GProc1(), Locks1(), MS1(), Mnesia2(), C6023(), Storage(), ExtentRepair()}
}

// Extra returns scenarios that are not part of the suite's table because
// every schedule finds them (they say nothing about strategies), but that
// bench bugs -only NAME still runs.
func Extra() []Scenario {
	return []Scenario{StorageLiveness()}
}

// Lookup returns the scenario of All or Extra with the given name.
func Lookup(name string) (Scenario, bool) {
	for _, s := range append(All(), Extra()...) {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// hit returns a Hit predicate that accepts failures of the given kind whose
// message contains every one of parts.
func hit(kind string, parts ...string) func(kind, message string) bool {
	return func(k, msg string) bool {
		if k != kind {
			return false
		}
		for _, p := range parts {
			if !strings.Contains(msg, p) {
				return false
			}
		}
		return true
	}
}

// anyOf returns a Hit predicate that accepts what any of hs accepts.
func anyOf(hs ...func(kind, message string) bool) func(kind, message string) bool {
	return func(k, msg string) bool {
		for _, h := range hs {
			if h(k, msg) {
				return true
			}
		}
		return false
	}
}
