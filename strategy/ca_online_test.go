package strategy_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/internal/mtest"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// onlineCheck is conflict analysis as the runtime drives it, with a check of
// everything it learns while the iteration runs against what the finished
// trace says. The runtime hands it every step (it is a StepReader, through
// the CA it wraps) and, since it is a TraceReader too, the trace at End.
// At End it checks, op by op, that
//
//   - the steps it was handed are the trace's steps, with their outcomes
//     (the runtime hands a step over only once its event is final), and
//     their signatures are the trace's {task key, location};
//   - the conflicts a hb.ConflictMarker found in those steps as they came
//     are exactly the ops hb.ConflictPairs pairs on the finished trace;
//
// and that what the CA learned online, its stats (Table.Assess) and its
// table (Table.Learn, merged into the table it read), equals what the
// offline pass over the trace gives.
type onlineCheck struct {
	*strategy.CA
	read   *strategy.Table // the table the iteration reads
	keep   bool            // Learn's keep: false makes CA idle
	events []trace.Event
	sigs   []strategy.Sig
	marker hb.ConflictMarker
	whole  bool // StepsDone's complete
	done   bool
	want   *strategy.Table // the table read with the iteration learned offline
	handed *strategy.Table // what Learned handed back since Learn gave read

	iterations, ops, conflicts, long int
	errs                             []string
}

func newOnlineCheck(inner strategy.Strategy) *onlineCheck {
	return &onlineCheck{CA: strategy.WithCA(inner, nil), keep: true}
}

func (c *onlineCheck) ReadsTrace() bool { return true }

// ReadsSteps is true: the check reads every step, whether the CA analyses
// the iteration or not.
func (c *onlineCheck) ReadsSteps() bool { return true }

func (c *onlineCheck) Learn(k strategy.Knowledge, keep bool) {
	if t := strategy.ConflictTable(k); t != c.read {
		c.handed = strategy.NewTable()
		c.read = t
	}
	c.keep = keep
	c.CA.Learn(k, keep)
}

func (c *onlineCheck) Begin(seed uint64) {
	c.events, c.sigs, c.done, c.whole = c.events[:0], c.sigs[:0], false, false
	c.marker.Reset()
	c.CA.Begin(seed)
}

func (c *onlineCheck) Executed(e *trace.Event, sig strategy.Sig) {
	c.events = append(c.events, *e)
	c.sigs = append(c.sigs, sig)
	c.marker.Step(e)
	c.CA.Executed(e, sig)
}

func (c *onlineCheck) StepsDone(complete bool) {
	c.done, c.whole = true, complete
	c.CA.StepsDone(complete)
}

func (c *onlineCheck) fail(format string, args ...any) {
	if len(c.errs) < 10 {
		c.errs = append(c.errs, fmt.Sprintf("iteration %d: ", c.iterations)+fmt.Sprintf(format, args...))
	}
}

func (c *onlineCheck) End(tr *trace.Trace) {
	c.CA.End(tr)
	c.iterations++
	c.want = nil
	if !c.done {
		c.fail("StepsDone was not called")
		return
	}
	if tr == nil { // too long to learn from: the runtime said so to both
		c.long++
		if c.whole || c.CA.Stats() != (strategy.CAStats{}) {
			c.fail("no trace, yet StepsDone(%v) and stats %+v", c.whole, c.CA.Stats())
		}
		return
	}
	if !c.whole {
		c.fail("a trace, yet StepsDone(false)")
		return
	}
	// The steps handed over are the trace's, final, in order.
	var at []int // event index of each step
	for i := range tr.Events {
		if e := &tr.Events[i]; e.IsStep() && e.Task >= 0 {
			at = append(at, i)
		}
	}
	if len(at) != len(c.events) {
		c.fail("%d steps handed over, the trace has %d", len(c.events), len(at))
		return
	}
	offline := make([]bool, len(tr.Events))
	hb.ConflictPairs(tr, func(i, j int) { offline[i], offline[j] = true, true })
	online := c.marker.Marked()
	for k, i := range at {
		got, want := c.events[k], tr.Events[i]
		got.Loc, want.Loc = 0, 0 // a program counter here, a stable key in the trace
		if got != want {
			c.fail("step %d handed over as %+v, the trace has %+v", k+1, got, want)
			return
		}
		if sig := (strategy.Sig{Task: tr.Tasks[want.Task].Key, Loc: tr.Events[i].Loc}); c.sigs[k] != sig {
			c.fail("step %d: signature %v, the trace's is %v", k+1, c.sigs[k], sig)
			return
		}
		if online[k] != offline[i] {
			c.fail("step %d (%v of task %d on resource %d): conflicted %v online, %v by hb.ConflictPairs",
				k+1, want.Kind, want.Task, want.Res, online[k], offline[i])
			return
		}
		c.ops++
		if online[k] {
			c.conflicts++
		}
	}
	if !c.keep || !c.CA.ReadsSteps() {
		return
	}
	if want := c.read.Assess(tr); c.CA.Stats() != want {
		c.fail("stats %+v online, %+v offline", c.CA.Stats(), want)
	}
	c.want = c.read.Clone()
	c.want.Learn(tr)
}

// Learned checks that the table read, with what the iteration learned
// merged in, is the table read with the trace learned offline; CA leaves
// out what it handed back earlier in the epoch, so that is merged into
// both.
func (c *onlineCheck) Learned() strategy.Knowledge {
	k := c.CA.Learned()
	if c.want != nil {
		online := c.read.Clone()
		online.Merge(c.handed)
		online.Merge(strategy.ConflictTable(k))
		c.want.Merge(c.handed)
		if got, want := saved(online), saved(c.want); got != want {
			c.fail("learned online:\n%s\noffline:\n%s", got, want)
		}
		c.want = nil
	}
	c.handed.Merge(strategy.ConflictTable(k))
	return k
}

// saved is t as Save writes it, locations as numbers.
func saved(t *strategy.Table) string {
	var b strings.Builder
	if err := t.Save(&b, nil); err != nil {
		return err.Error()
	}
	return b.String()
}

// runOnline explores test with a fresh onlineCheck around inner and fails
// t on any mismatch; it returns the checker for its counts.
func runOnline(t *testing.T, name string, test func(*morpheus.Env), inner func() strategy.Strategy, n int, opts ...morpheus.Option) *onlineCheck {
	t.Helper()
	var c *onlineCheck
	opts = append([]morpheus.Option{
		morpheus.Strategy(func() strategy.Strategy { c = newOnlineCheck(inner()); return c }),
		morpheus.Iterations(n), morpheus.Workers(1), morpheus.Seed(7),
		mtest.CountHits(func(string, string) bool { return true }),
	}, opts...)
	if _, err := morpheus.Explore(test, opts...); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if c == nil || c.iterations == 0 {
		t.Fatalf("%s: no iteration ran under the checker", name)
	}
	if len(c.errs) > 0 {
		t.Fatalf("%s (%s): conflict analysis online differs from the trace:\n%s", name, c.Name(), strings.Join(c.errs, "\n"))
	}
	return c
}

// inners are the strategies conflict analysis wraps in the checks below.
var inners = []func() strategy.Strategy{
	func() strategy.Strategy { return strategy.NewPOS() },
	func() strategy.Strategy { return strategy.NewRandom() },
	func() strategy.Strategy { return strategy.NewPCT(3, 0) },
}

// Conflict analysis learns while an iteration runs exactly what the offline
// pass over its trace gives, op by op: on small programs (goroutines,
// actors, channels, selects, locks, atomics, timers, crashes), buggy and
// fixed, under conflict analysis around POS, random walk and PCT, over iterations that fail and pass and across learning epochs
// (50 or 60 iterations: the first two epochs, 48 iterations, learn; the
// last epoch of a bounded run does not, see strategy.Learner).
func TestCAOnlineMatchesTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a few thousand iterations")
	}
	var total, conflicts int
	count := func(c *onlineCheck) { total, conflicts = total+c.ops, conflicts+c.conflicts }
	for i, f := range mtest.Bugs {
		for _, fixed := range []bool{false, true} {
			count(runOnline(t, fmt.Sprintf("%s fixed=%v", f.Name, fixed), f.Test(fixed), inners[i%3], 60, f.Options...))
			count(runOnline(t, fmt.Sprintf("%s fixed=%v %d", f.Name, fixed, i), f.Test(fixed), inners[(i+1)%3], 50, f.Options...))
		}
	}
	t.Logf("%d ops checked, %d in a conflict", total, conflicts)
	// The checks saw conflicts, and ops without any.
	if conflicts == 0 || conflicts == total {
		t.Errorf("%d ops checked, %d in a conflict: the programs do not exercise both outcomes", total, conflicts)
	}
}

// An iteration with more tasks than conflict analysis learns from is not
// learned from, online as it was offline: the runtime stops handing over
// steps and says so (StepsDone(false)), and withholds the trace.
func TestCAOnlineTooManyTasks(t *testing.T) {
	test := func(e *morpheus.Env) {
		done := csync.Make[int](0)
		const n = 2100 // more than core's bound on the tasks learned from
		for i := range n {
			csync.Go(func() { done.Send(i) })
		}
		for range n {
			done.Recv()
		}
	}
	c := runOnline(t, "2100 goroutines", test, inners[0], 2, morpheus.ClockLimit(time.Minute))
	if c.long != c.iterations {
		t.Errorf("%d of %d iterations were too long to learn from, want all", c.long, c.iterations)
	}
}

// pingPong is a test whose iterations take about 4 steps per round: two
// goroutines trading a value over unbuffered channels.
func pingPong(rounds int) func(*morpheus.Env) {
	return func(*morpheus.Env) {
		ping, pong := csync.Make[int](0), csync.Make[int](0)
		csync.Go(func() {
			for v := range rounds {
				pong.Send(ping.Recv() + v)
			}
		})
		for v := range rounds {
			ping.Send(v)
			pong.Recv()
		}
	}
}

// Long iterations: one whose steps conflict analysis keeps past the first
// ones to mark them at End is learned from as the trace says; one past the
// runtime's bound on events is not learned from at all.
func TestCAOnlineLongIterations(t *testing.T) {
	if testing.Short() {
		t.Skip("runs iterations of tens of thousands of steps")
	}
	// 20 iterations: the first epoch's 16 are learned from (the last epoch
	// of a bounded run is not, see strategy.Learner).
	c := runOnline(t, "ping-pong 5000", pingPong(5000), inners[0], 20)
	if c.long != 0 || c.ops < 20*strategy.HeldAfter {
		t.Errorf("%d ops checked in %d iterations (%d too long), want 20 iterations of over %d", c.ops, c.iterations, c.long, strategy.HeldAfter)
	}
	c = runOnline(t, "ping-pong 70000", pingPong(70000), inners[0], 1, morpheus.MaxSteps(1<<20))
	if c.long != 1 {
		t.Errorf("%d of %d iterations too long to learn from, want the one", c.long, c.iterations)
	}
}
