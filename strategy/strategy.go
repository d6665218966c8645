package strategy

import "github.com/morpheus-go/morpheus/trace"

// Op is an enabled operation as a strategy sees it.
type Op struct {
	Task int32      // the task that would run it; a task has at most one enabled op
	Kind trace.Kind // what it does
	// Res is the resource the op touches, numbered within the iteration (0 =
	// none). Two ops conflict when they touch the same resource and at least one
	// of them is not a read.
	Res  uint32
	Read bool
	Sig  Sig // identity stable across iterations, for conflict analysis
}

// Sig is an op's signature: its task's stable identity and its code location.
// Conflict analysis keys what it learns by signature.
type Sig struct {
	Task uint64 // creation path or user-given name of the task, hashed
	Loc  uint64 // code location (a program counter within one process)
}

// conflicts reports whether a and b touch the same resource and at least one
// of them writes it.
func conflicts(a, b *Op) bool {
	return a.Res != 0 && a.Res == b.Res && !(a.Read && b.Read)
}

// Strategy chooses the schedule of an iteration.
//
// The runtime calls Begin once per iteration, then Next at every step with the
// non-empty set of enabled ops and Choose for every controlled choice, then End
// (with the finished iteration's trace if the strategy is a TraceReader).
type Strategy interface {
	// Name returns the strategy's name as Parse accepts it.
	Name() string
	// Begin starts an iteration whose decisions derive from seed.
	Begin(seed uint64)
	// Next returns the index in enabled of the op to run next, or -1 if the
	// strategy cannot go on (a replay that diverged). A strategy that can
	// say why has a method Divergence() string, whose explanation the
	// nondeterminism failure reports (CA passes on its inner strategy's).
	Next(enabled []Op) int
	// Choose returns a value in [0, n) for a controlled choice of the op that
	// Next picked last, or -1 if the strategy cannot go on.
	Choose(n int) int
	// End tells the strategy that the iteration ended; tr holds its trace,
	// or is nil: the runtime hands one only to a TraceReader, and not for
	// an iteration too long to learn from.
	End(tr *trace.Trace)
}

// Follower is implemented by strategies that follow a recorded schedule step
// by step (the runtime's replay of a trace does). While Following reports true the runtime lets the
// strategy pick every step, including those it otherwise picks itself (the
// fair tail of a run whose main task has returned), so that the run takes
// the recorded steps and choices in order.
type Follower interface {
	Following() bool
}

// TraceReader is implemented by strategies that read the trace End receives.
// The runtime builds that trace, a copy of the iteration's steps, only for
// them; the others get nil. Its locations are stable keys, as in Op.Sig.
type TraceReader interface {
	ReadsTrace() bool
}

// StepReader is implemented by strategies that learn from the steps of an
// iteration while it runs (conflict analysis), which costs neither a copy of
// the trace nor a pass over it at End. The runtime calls Executed once for
// every step, in order, as soon as the step has had its effect (before the
// next step is decided, or before End for the last one): e is the step's
// event as the trace records it, valid only during the call, and sig the
// signature of its op (Op.Sig when it was enabled). Then, before End, it
// calls StepsDone. complete is false if the runtime stopped calling Executed
// before the end: it does when an iteration outgrows what is worth learning
// from (a benchmark's million round trips, thousands of tasks), and the
// strategy then learns nothing from the iteration, as a TraceReader gets no
// trace for it. ReadsSteps, asked once after Begin, says whether the strategy
// reads the iteration's steps at all: if not, the runtime calls neither
// Executed nor StepsDone until the next Begin.
type StepReader interface {
	ReadsSteps() bool
	Executed(e *trace.Event, sig Sig)
	StepsDone(complete bool)
}
