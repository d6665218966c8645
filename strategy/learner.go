package strategy

// Learner is a strategy that learns across iterations: conflict analysis
// ("+ca") learns which ops never conflict, and PCT without a given step bound
// learns how many steps an iteration takes.
//
// # Epochs
//
// A runtime with parallel workers must not let one iteration's decisions
// depend on which iterations happened to finish before it on other workers.
// So it runs the iterations in epochs of fixed ranges of iteration numbers,
// and every iteration of an epoch decides from the same frozen Knowledge:
// everything the iterations of the earlier epochs learned, merged. The
// runtime drives each worker's instance so:
//
//	k := l.Prior()            // nil: this instance learns nothing
//	for each iteration i {
//		l.Learn(k_e, keep)    // k_e: the frozen knowledge of i's epoch
//		l.Begin(seed); Next/Choose ...; l.End(tr)
//		epochAcc.Merge(l.Learned())
//	}
//
// where k_0 is k and k_{e+1} is Advance(k_e, epochAcc of epoch e): k_e
// merged with what the iterations of the epochs before i's handed back.
// keep is false when nothing will ever read what the iteration learns (the
// last epoch of a bounded run): the strategy may then skip its analysis. A systematic search (see Exhauster) inside a learner is given
// the prior knowledge once, and it stays frozen for the whole search, whose
// replayed prefixes need the same decisions.
type Learner interface {
	Strategy
	// Prior returns the knowledge before any iteration, or nil if this
	// instance learns nothing (PCT with a fixed step bound).
	Prior() Knowledge
	// Learn makes the coming iterations decide from k, which the caller
	// shares with other workers and never changes: the strategy must not
	// change it either. keep false means what they learn will not be read.
	Learn(k Knowledge, keep bool)
	// Learned returns what the last iteration learned, for the caller to
	// own, or nil if it learned nothing. It may leave out what it handed
	// back before since Learn gave it the same k: the runtime merges what
	// every iteration of an epoch learned into one.
	Learned() Knowledge
}

// Knowledge is what a Learner learned. Merge must be commutative and
// associative (a union of facts, a maximum, a sum of counts), so that what an
// epoch learned does not depend on the order in which its iterations
// finished. A Learner gives and takes only Knowledge of its own kind.
type Knowledge interface {
	// Merge folds o into the receiver.
	Merge(o Knowledge)
	// Clone returns a copy that shares nothing mutable with the receiver.
	Clone() Knowledge
}

// AsLearner returns s as a Learner that learns something, if it is one.
func AsLearner(s Strategy) (Learner, bool) {
	l, ok := s.(Learner)
	if !ok || l.Prior() == nil {
		return nil, false
	}
	return l, true
}
