package strategy

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/plural"

	"github.com/morpheus-go/morpheus/trace"
)

// CAStats measures how well a conflict-analysis table predicted the conflicts
// of iterations (Morpheus Table 4). Counts are of step events (ops).
type CAStats struct {
	Iterations int
	Ops        int // ops that ran
	Conflicts  int // ops that were part of at least one conflict
	// FalseNegatives are ops predicted not to conflict (signature seen, never
	// conflicted) that were part of a conflict: WithCA ran them at once
	// although their order mattered.
	FalseNegatives int
	// FalsePositives are ops predicted to conflict (signature unseen or
	// conflicted before) that were part of no conflict: the inner strategy
	// spent randomness on them for nothing.
	FalsePositives int
}

// Add adds o's counts to s.
func (s *CAStats) Add(o CAStats) {
	s.Iterations += o.Iterations
	s.Ops += o.Ops
	s.Conflicts += o.Conflicts
	s.FalseNegatives += o.FalseNegatives
	s.FalsePositives += o.FalsePositives
}

// String reports the counts per iteration, as Morpheus Table 4 does, in
// plain words, with the paper's terms in parentheses: a miss is a false
// negative (an op run at once as independent that was in a conflict), a
// needless choice a false positive (an op scheduled as conflicting that was
// in none).
func (s CAStats) String() string {
	n := float64(max(s.Iterations, 1))
	return fmt.Sprintf("%s; per iteration: %.2f ops, %.2f in a conflict, %.2f run at once though in a conflict "+
		"(missed: false negatives), %.2f scheduled though in none (needless choices: false positives)",
		plural.N(s.Iterations, "iteration"), float64(s.Ops)/n, float64(s.Conflicts)/n, float64(s.FalseNegatives)/n, float64(s.FalsePositives)/n)
}

// Assess compares the predictions of t with the conflicts tr actually had.
func (t *Table) Assess(tr *trace.Trace) CAStats { return t.assess(tr, conflictedOps(tr, nil)) }

func (t *Table) assess(tr *trace.Trace, conflicted []bool) CAStats {
	st := CAStats{Iterations: 1}
	for i := range tr.Events {
		if s, ok := eventSig(tr, i); ok {
			st.count(t.Independent(s), conflicted[i])
		}
	}
	return st
}

// count counts an op that was predicted independent or not, and was part of
// a conflict or not.
func (s *CAStats) count(independent, conflicted bool) {
	s.Ops++
	switch {
	case conflicted:
		s.Conflicts++
		if independent {
			s.FalseNegatives++
		}
	case !independent:
		s.FalsePositives++
	}
}
