package core

import "github.com/morpheus-go/morpheus/strategy"

// stepFeed hands what a learning strategy reads: every step, as soon as it
// has had its effect, to a strategy.StepReader (conflict analysis), and
// whether to build the trace End gets, for a strategy.TraceReader.
//
// A step's event is complete once the op's performer has recorded its
// outcome (Run.Event), which it does before the next step is decided: the
// feed holds each step back until decide records the next one, or until the
// iteration ends.
type stepFeed struct {
	to    strategy.StepReader // nil: the strategy reads no steps
	trace bool                // the strategy is a TraceReader
	at    int                 // the event of the step held back, -1 if none
	sig   strategy.Sig        // the signature of its op
	over  bool                // the iteration outgrew what is learned from
}

// reset starts an iteration of strategy s; it reports whether s reads steps
// or traces, which then use stable location keys (LocKey) as signatures do.
func (f *stepFeed) reset(s strategy.Strategy) bool {
	*f = stepFeed{at: -1}
	f.to, _ = s.(strategy.StepReader)
	if tr, ok := s.(strategy.TraceReader); ok && tr.ReadsTrace() {
		f.trace = true
	}
	return f.to != nil || f.trace
}

// begin drops the step reader for the iteration just begun if it reads
// none of its steps (strategy.StepReader.ReadsSteps).
func (f *stepFeed) begin() {
	if f.to != nil && !f.to.ReadsSteps() {
		f.to = nil
	}
}

// ran records that the step whose event is rec's at has been decided, its
// op's signature sig: the step before it is complete and is handed over.
func (m *machine) ran(at int, sig strategy.Sig) {
	f := &m.feed
	if f.to == nil {
		return
	}
	m.handOver()
	f.at, f.sig = at, sig
}

// handOver hands the step held back to the strategy, unless the iteration
// is too long or has too many tasks to learn from (maxLearnEvents,
// maxLearnTasks), from which point on it hands over nothing.
func (m *machine) handOver() {
	f := &m.feed
	if f.at < 0 || f.over {
		return
	}
	if !m.learnable() {
		f.over = true
		return
	}
	f.to.Executed(m.rec.At(f.at), f.sig)
	f.at = -1
}

// endSteps hands over the last step and says whether the strategy had them
// all (strategy.StepReader.StepsDone).
func (m *machine) endSteps() {
	if m.feed.to == nil {
		return
	}
	m.handOver()
	m.feed.to.StepsDone(!m.feed.over && m.learnable())
}

// learnable reports whether the iteration is short enough, in events and
// tasks, to learn from.
func (m *machine) learnable() bool {
	return m.rec.Len() <= maxLearnEvents && len(m.tasks) <= maxLearnTasks
}
