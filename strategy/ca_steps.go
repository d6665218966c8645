package strategy

import (
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// caSteps is what conflict analysis keeps of the steps of the iteration
// under way: the marker that finds their conflicts as they come
// (hb.ConflictMarker, the happens-before pass done step by step), and
// the signature of each, for End to assess and learn once the last step
// has told which ones were part of a conflict.
//
// Past heldAfter steps the events are kept (copied) instead, and marked
// only at End: an iteration that grows too long to learn from (the runtime
// then stops at 2^18 events and says so with StepsDone(false)) costs a
// copy of its steps, not a happens-before pass over them, as it did when
// CA read a trace at End. The marks are the same either way.
type caSteps struct {
	marker hb.ConflictMarker
	ops    []caOp        // one per event, in order
	held   []trace.Event // the events from heldAfter on, not given to marker yet
	done   bool          // the runtime called StepsDone in this iteration
	whole  bool          // ... with complete true
}

// heldAfter is the number of steps marked as they come; see caSteps.
const heldAfter = 1 << 14

// caOp is a step as End learns it: its signature and the table's state of
// it, and whether it has one (a trace End reads may hold events of the
// runtime and unknown tasks, which take part in happens-before but are not
// learned).
type caOp struct {
	sig Sig
	st  sigState
	ok  bool
}

// reset starts a new iteration, keeping the buffers, unless the last
// iteration was long: its buffers are then left to the garbage collector.
func (s *caSteps) reset() {
	if len(s.ops) > heldAfter {
		*s = caSteps{}
		return
	}
	s.marker.Reset()
	s.ops, s.held = s.ops[:0], s.held[:0]
	s.done, s.whole = false, false
}

// step takes the next event of the iteration, its op's signature and the
// table's state of it.
func (s *caSteps) step(e *trace.Event, sig Sig, st sigState, ok bool) {
	if len(s.ops) < heldAfter {
		s.marker.Step(e)
	} else {
		s.held = append(s.held, *e)
	}
	s.ops = append(s.ops, caOp{sig: sig, st: st, ok: ok})
}

// marked returns, for every step taken, whether it was part of a conflict.
func (s *caSteps) marked() []bool {
	for i := range s.held {
		s.marker.Step(&s.held[i])
	}
	s.held = s.held[:0]
	return s.marker.Marked()
}

// readTrace takes the events of tr, for a driver that hands End a trace
// instead of the steps (see End), t being the table read.
func (s *caSteps) readTrace(tr *trace.Trace, t *Table) {
	for i := range tr.Events {
		sig, ok := eventSig(tr, i)
		s.step(&tr.Events[i], sig, t.m.get(sig), ok)
	}
}

// Executed takes a step of the iteration under way (see StepReader). A CA
// that does not analyse the iteration (ReadsSteps) ignores it. It is caSteps.step,
// inline, with the state of the op's signature: the runtime hands a step
// over once Next has picked the one after it, so the op is usually the
// one Next picked before that.
func (c *CA) Executed(e *trace.Event, sig Sig) {
	if !c.reads {
		return
	}
	var st sigState
	p := &c.picked
	switch k := c.npick & 1; { // p[k] is the older pick
	case p[k].v != caUnknown && p[k].sig == sig:
		st = sigState(p[k].v - 1)
	case p[k^1].v != caUnknown && p[k^1].sig == sig:
		st = sigState(p[k^1].v - 1)
	default: // not picked by Next (a probe, the fair tail): look it up
		st = c.table.m.get(sig)
	}
	s := &c.steps
	n := len(s.ops)
	if n < heldAfter {
		s.marker.Step(e)
	} else {
		s.held = append(s.held, *e)
	}
	s.ops = append(s.ops, caOp{sig: sig, st: st, ok: true})
}

// ReadsSteps reports whether CA analyses the iteration under way: not if
// nothing will read what it learns (Learn's keep false), nor if its table is
// settled and the iteration is not in the sample (see CA).
func (c *CA) ReadsSteps() bool { return c.reads }

// StepsDone says that Executed has had every step of the iteration, or, with
// complete false, that the runtime stopped early: End then learns nothing.
func (c *CA) StepsDone(complete bool) { c.steps.done, c.steps.whole = true, complete }

// learnSteps assesses the table's predictions of the iteration's steps and
// learns them into the pending table (into the table itself if live). It
// learns only what the table did not know, nor an earlier iteration of the
// epoch handed back: what an iteration learns is merged into the table it
// read (Learner), so the rest would change nothing.
func (c *CA) learnSteps() {
	ops := c.steps.ops
	conflicted := c.steps.marked()[:len(ops)]
	var n, hits, missed, needless int // CAStats.count's, in registers
	for i := range ops {
		op := &ops[i]
		if !op.ok {
			continue
		}
		was, hit := op.st, conflicted[i]
		now := was | sigSeen
		n++
		if hit {
			now |= sigConflicted
			hits++
			if was == sigSeen {
				missed++
			}
		} else if was != sigSeen {
			needless++
		}
		if now != was {
			if h := c.handed.get(op.sig); h|now != h {
				c.pending.add(op.sig, now)
				c.handed.add(op.sig, now)
			}
		}
	}
	c.stats = CAStats{Iterations: 1, Ops: n, Conflicts: hits, FalseNegatives: missed, FalsePositives: needless}
	if c.live {
		c.table.Merge(c.pending)
		c.pending = &Table{}
	}
}
