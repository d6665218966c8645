package bugs

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// variant is what a scenario's processes know about the system under test:
// whether the bug is fixed, and how much local work they do (WithWork).
type variant struct {
	fixed bool
	work  int
}

// handled is the bookkeeping a process does after it handled a message: work
// updates of a state table of its own (as an Erlang server updates its ETS
// table or process dictionary). Nothing else reads the table, so these ops
// never race; with work 0 there are none.
func (v variant) handled(e *morpheus.Env) {
	if v.work <= 0 {
		return
	}
	var table csync.Var[int]
	for range v.work {
		table.Store(table.Load() + 1)
	}
}

// built sets s's Test (and what WithWork rebuilds it from) from b.
func built(s Scenario, b func(variant) func(*morpheus.Env)) Scenario {
	s.build = b
	s.Test = func(fixed bool) func(*morpheus.Env) { return b(variant{fixed: fixed}) }
	return s
}

// WithWork returns s with every process of its system doing work private
// updates (2·work ops) after each message it handles, the local work real
// servers do between messages.
//
// The papers' systems are large: in Morpheus's gproc-1 test 326 of 6593 ops
// per run conflicted (Table 4), while the scenarios model only the
// messages a bug involves, and a large share of their ops conflict. This
// changes no outcome (the updates touch nothing shared, and fixed variants
// still pass) but puts the work between a process's messages, where it delays
// the process under strategies that spend a decision on every op and where
// conflict analysis learns to run it at once. Apply WithWork before
// WithBackground. Scenarios whose system lives outside this package
// (storage) are returned unchanged.
func WithWork(s Scenario, work int) Scenario {
	if work <= 0 || s.build == nil {
		return s
	}
	b := s.build
	s = built(s, func(v variant) func(*morpheus.Env) {
		v.work = work
		return b(v)
	})
	s.Name = fmt.Sprintf("%s+w%d", s.Name, work)
	return s
}
