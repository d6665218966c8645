package strategy

import (
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// Table is the history of conflict analysis (Morpheus §2.3): for every op
// signature seen in earlier iterations, whether some op with that signature
// was ever part of a conflict. A signature seen but never in a conflict
// predicts that the op does not conflict: WithCA schedules it at once.
//
// A Table grows with the program, not with the number of iterations: one
// entry per signature (task identity × code location). Tables merge by union,
// which is commutative and idempotent, so workers that learn separately reach
// the same table whatever the order of merging.
//
// A Table is not safe for concurrent use; readers may share one that nobody
// writes (a snapshot).
type Table struct {
	m sigSet
}

// sigState holds what the table knows of a signature.
type sigState uint8

const (
	sigSeen       sigState = 1 << iota // an op with this signature ran
	sigConflicted                      // such an op was part of a conflict
)

// NewTable returns an empty table.
func NewTable() *Table { return &Table{} }

// Len returns the number of signatures in t.
func (t *Table) Len() int { return t.m.n }

// Lookup reports whether an op with signature s was seen, and whether one was
// ever part of a conflict.
func (t *Table) Lookup(s Sig) (seen, conflicted bool) {
	st := t.m.get(s)
	return st&sigSeen != 0, st&sigConflicted != 0
}

// Independent reports whether t predicts that an op with signature s does
// not conflict: it was seen and never conflicted. Unseen signatures are
// predicted to conflict.
func (t *Table) Independent(s Sig) bool { return t.m.get(s) == sigSeen }

// Mark records that an op with signature s ran and, if conflicted, that it
// was part of a conflict.
func (t *Table) Mark(s Sig, conflicted bool) {
	st := sigSeen
	if conflicted {
		st |= sigConflicted
	}
	t.add(s, st)
}

// add adds the facts st, which include sigSeen, to what t knows of s.
func (t *Table) add(s Sig, st sigState) { t.m.add(s, st) }

// Merge adds what o knows to t.
func (t *Table) Merge(o *Table) {
	t.m.reserve(t.m.n + o.m.n)
	for _, sl := range o.m.slots {
		if sl.st != 0 {
			t.m.add(sl.sig, sl.st)
		}
	}
}

// Clone returns a copy of t, for instance a snapshot to hand to workers.
func (t *Table) Clone() *Table { return &Table{m: t.m.clone()} }

// Learn records the ops of tr and its conflicts (as CA finds them). The
// signature of a step event e is {tr.Tasks[e.Task].Key, e.Loc}; events of the
// runtime (Task < 0) or of tasks missing from tr.Tasks are skipped.
func (t *Table) Learn(tr *trace.Trace) { t.learn(tr, conflictedOps(tr, nil)) }

// learn records the ops of tr; conflicted[i] tells whether event i was part of
// a conflict.
func (t *Table) learn(tr *trace.Trace, conflicted []bool) {
	for i := range tr.Events {
		if s, ok := eventSig(tr, i); ok {
			t.Mark(s, conflicted[i])
		}
	}
}

// conflictedOps returns, for every event of tr, whether it was part of a
// conflict, reusing buf.
func conflictedOps(tr *trace.Trace, buf []bool) []bool {
	return hb.ConflictingEvents(tr, buf)
}

// eventSig returns the signature of step event i of tr.
func eventSig(tr *trace.Trace, i int) (Sig, bool) {
	e := &tr.Events[i]
	if !e.IsStep() || e.Task < 0 || int(e.Task) >= len(tr.Tasks) {
		return Sig{}, false
	}
	return Sig{Task: tr.Tasks[e.Task].Key, Loc: e.Loc}, true
}
