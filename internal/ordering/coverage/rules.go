package coverage

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus/internal/ordering/proto"
)

// Rule states that event Before always passes before event After: in every
// trace where After occurs, Before occurred earlier.
type Rule struct{ Before, After string }

func (r Rule) String() string { return r.Before + " < " + r.After }

// ParseRule parses "A<B". An event without "#N" means its first occurrence,
// "#0".
func ParseRule(s string) (Rule, error) {
	a, b, ok := strings.Cut(s, "<")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !ok || a == "" || b == "" || strings.Contains(b, "<") {
		return Rule{}, fmt.Errorf("rule %q: expected BEFORE<AFTER, e.g. coord:start<w1:work", s)
	}
	for _, e := range []string{a, b} {
		if !strings.Contains(e, ":") {
			return Rule{}, fmt.Errorf("rule %q: event %q: expected PROCESS:TRACEPOINT", s, e)
		}
		proc, _, _ := strings.Cut(e, ":")
		if !proto.ValidToken(proc) {
			return Rule{}, fmt.Errorf("rule %q: process %q: expected [A-Za-z0-9._-/]", s, proc)
		}
	}
	return Rule{Before: withOccurrence(a), After: withOccurrence(b)}, nil
}

func withOccurrence(e string) string {
	if strings.Contains(e, "#") {
		return e
	}
	return e + "#0"
}

// Violated reports whether trace (event keys) breaks the rule.
func (r Rule) Violated(trace []string) bool {
	for _, k := range trace {
		switch k {
		case r.Before:
			return false
		case r.After:
			return true
		}
	}
	return false
}

// MaxCounterexamples is how many counterexample runs a RuleCheck lists.
const MaxCounterexamples = 20

// RuleCheck is a rule and the runs that broke it.
type RuleCheck struct {
	Rule
	Checked int   // traces checked
	Broken  int   // traces that broke it
	Runs    []int // the first MaxCounterexamples of them
}

// Check checks trace of run.
func (c *RuleCheck) Check(run int, trace []string) bool {
	c.Checked++
	if !c.Violated(trace) {
		return false
	}
	c.Broken++
	if len(c.Runs) < MaxCounterexamples {
		c.Runs = append(c.Runs, run)
	}
	return true
}
