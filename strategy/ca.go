package strategy

import "github.com/morpheus-go/morpheus/trace"

// CA wraps a strategy with conflict analysis (Morpheus §2.3, "+ca"): at every
// step, if an enabled op is predicted not to conflict (its signature is in the
// table, seen and never conflicted), CA runs it at once, the first such op in
// enabled order, without consulting the inner strategy; otherwise the inner
// strategy decides. A local op (Local), which conflicts with nothing, runs
// before them, as the inner strategies run it. The inner strategy thus spends its randomness (its
// priorities, change points or choices) only on ops whose order may matter.
//
// # The inner strategy's view
//
// An op predicted not to conflict runs at the first step it is enabled, so
// the inner strategy never sees it: for the inner strategy, every op it saw
// still runs only when it picks it, and the contract of Next holds. Steps CA
// takes alone do not count as the inner strategy's steps (PCT spends no change
// point on them, DFS does not branch on them).
//
// # Learning in epochs
//
// The table CA reads is a snapshot that must not change during an iteration.
// CA finds the iteration's conflicts (steps of different tasks on one
// resource, not both reads, that no happens-before edge orders) while it
// runs: it is a StepReader, and feeds each step the runtime hands it to the
// happens-before pass done step by step (past the
// first 2^14 steps of a long iteration it keeps the steps and marks them at
// End, so that one too long to learn from costs no pass). End then
// assesses the predictions and learns into a private pending table, not
// into the snapshot, so that an iteration's decisions depend only on the
// snapshot and its seed; it learns only what the snapshot did not know. CA
// is a Learner: the runtime hands it each epoch's snapshot with Learn and
// takes the pending table with Learned, the same whatever the number of
// workers. Its Knowledge holds the table, how the predictions fared
// (ConflictStats), and the inner strategy's knowledge if that learns too
// (PCT estimating its bound). With DFS as the inner strategy the table must
// not change during the whole exploration, or the replayed prefixes
// diverge.
//
// A driver that is no StepReader's runtime may instead hand End the
// iteration's trace, which CA reads the same way. Given neither, CA never
// learns and leaves every decision to the inner strategy.
//
// # Probe iterations
//
// A prediction can hide its own mistake: an op predicted not to conflict runs
// as soon as it is enabled, and running early may be exactly what keeps it
// from ever meeting the op it conflicts with (a kill that would race with its
// victim's reply only when it comes late). Its signature then never shows a
// conflict and the schedules that need it delayed are never tried again. So
// one iteration in eight (probeEvery), chosen by its seed, is a probe: CA predicts
// nothing and the inner strategy decides every step, as without CA, while End
// learns as usual. A CA told that nothing will read what it learns does not
// probe, nor does one around a systematic search (DFS), whose table is frozen
// for the whole search and whose replayed prefixes need the same decisions.
//
// # Settled tables
//
// A table stops changing once the program's signatures are known and their
// conflicts found; analysing every iteration then only re-derives what the
// table already says. The knowledge counts the epochs in a row whose
// iterations learned nothing new (not a signature, not a conflict); while
// that count is k > 0, CA analyses only a sample of the iterations, one in
// 2^min(k, 3) chosen by the seed (a half, a quarter, then an eighth), and
// the others learn nothing and count in no ConflictStats; they decide as
// any other (a probe still probes). An epoch that learns anything ends the
// count, and the next analyses every iteration again. The sample depends
// only on the epoch's knowledge and the iteration's seed, so what an
// iteration reads, and so its schedule, does not depend on the number of
// workers; and while the skipped iterations would have learned nothing,
// every schedule is the one analysing them all gives. What a settled table
// can miss is a conflict rare enough to show in none of a whole epoch's
// iterations: it is then learned only once it shows in the sample.
type CA struct {
	inner   Strategy
	table   *Table
	pending *Table
	// handed holds what Learned handed back since Learn gave the table
	// CA reads: the runtime has merged it into the epoch's knowledge
	// already, so a later iteration of the epoch leaves it out.
	handed  sigSet
	live    bool    // End learns into table itself (tests; see export_test.go)
	idle    bool    // End neither learns nor assesses (Learn's keep false)
	settled int     // epochs in a row that learned nothing (see Settled tables)
	reads   bool    // this iteration's steps are analysed (not idle, in the sample)
	probe   bool    // this iteration predicts nothing (see Probe iterations)
	search  bool    // the inner strategy is a systematic search: never probe
	innerLF bool    // the inner strategy is a LocalFirst
	stats   CAStats // of the last iteration
	steps   caSteps // the steps of the iteration under way (ca_steps.go)
	// verdict caches what the table says of each task's enabled op, valid
	// until the op runs.
	verdict []caVerdict
	// picked are the signatures of the last two ops Next picked, with
	// their verdicts: the runtime hands an op to Executed after Next has
	// picked the one after it, and Executed then need not look it up again
	// (ca_steps.go).
	picked [2]caPick
	npick  int
}

// caVerdict is the table's state of a signature plus one; 0 means not
// looked up yet.
type caVerdict uint8

const (
	caUnknown     caVerdict = 0
	caIndependent           = caVerdict(sigSeen) + 1 // seen, never conflicted
)

// caPick is an op Next picked: its signature and its verdict (caUnknown:
// none picked).
type caPick struct {
	sig Sig
	v   caVerdict
}

// WithCA returns inner wrapped with conflict analysis reading table, which
// must not change during an iteration (see CA). A nil table is an empty one.
func WithCA(inner Strategy, table *Table) *CA {
	if table == nil {
		table = NewTable()
	}
	_, search := AsExhauster(inner)
	lf, ok := inner.(LocalFirst)
	return &CA{inner: inner, table: table, pending: &Table{}, search: search, innerLF: ok && lf.LocalFirst()}
}

// Name returns the inner strategy's name followed by "+ca".
func (c *CA) Name() string { return c.inner.Name() + caSuffix }

// Inner returns the wrapped strategy. CA itself is never an Exhauster, even
// around DFS (a random strategy with CA is not a systematic search); use
// AsExhauster to find the DFS inside.
func (c *CA) Inner() Strategy { return c.inner }

// Stats returns how the table's predictions fared in the last iteration.
func (c *CA) Stats() CAStats { return c.stats }

// probeEvery is how often CA runs a probe iteration: one in probeEvery.
const probeEvery = 8

// probeSeed reports whether the iteration with this seed is a probe.
func probeSeed(seed uint64) bool {
	return (seed*0x9e3779b97f4a7c15)>>60 < 16/probeEvery
}

// maxSettledRate bounds the thinning of a settled table's analysis: past
// this many quiet epochs, one iteration in 2^maxSettledRate is analysed.
const maxSettledRate = 3

// sampledSeed reports whether the iteration with this seed is analysed when
// the table has been settled for the given number of epochs: one in
// 2^min(settled, maxSettledRate), chosen by bits of the seed that
// probeSeed does not read.
func sampledSeed(seed uint64, settled int) bool {
	return (seed*0xbf58476d1ce4e5b9)>>61 < 8>>min(settled, maxSettledRate)
}

func (c *CA) Begin(seed uint64) {
	clear(c.verdict)
	c.picked, c.npick = [2]caPick{}, 0
	c.stats = CAStats{}
	c.steps.reset()
	c.reads = !c.idle && sampledSeed(seed, c.settled)
	c.probe = !c.idle && !c.search && probeSeed(seed)
	c.inner.Begin(seed)
}

func (c *CA) Next(enabled []Op) int {
	if c.probe || c.table.m.n == 0 { // an empty table predicts nothing
		i := -1
		if !c.innerLF { // a LocalFirst inner strategy picks the local op itself
			i = firstLocal(enabled)
		}
		if i < 0 {
			i = c.inner.Next(enabled)
		}
		if i >= 0 && i < len(enabled) {
			c.pick(&enabled[i], caUnknown)
		}
		return i
	}
	if i := firstLocal(enabled); i >= 0 { // as the inner strategies do
		c.pick(&enabled[i], caUnknown)
		return i
	}
	verdict := c.verdict
	for i := range enabled {
		op := &enabled[i]
		if int(op.Task) >= len(verdict) {
			c.verdict = grow(c.verdict, op.Task, caUnknown)
			verdict = c.verdict
		}
		v := verdict[op.Task]
		if v == caUnknown {
			v = caVerdict(c.table.m.get(op.Sig)) + 1
			verdict[op.Task] = v
		}
		if v == caIndependent {
			c.pick(op, v)
			return i
		}
	}
	i := c.inner.Next(enabled)
	if i >= 0 && i < len(enabled) {
		c.pick(&enabled[i], c.verdict[enabled[i].Task])
	}
	return i
}

// LocalFirst reports whether the inner strategy is a LocalFirst: CA then
// is one too. It runs the first local op before any other, and what it
// notes when it does (the pick, for Executed) its later decisions do not
// need: Executed then looks the op up, and a local op's verdict is never
// cached.
func (c *CA) LocalFirst() bool { return c.innerLF }

// pick records that op, whose verdict is v, runs: its task's next op is a
// new op, and Executed will want the state of its signature.
func (c *CA) pick(op *Op, v caVerdict) {
	if int(op.Task) < len(c.verdict) { // not so for a local op (see Next)
		c.verdict[op.Task] = caUnknown
	}
	c.picked[c.npick&1] = caPick{op.Sig, v}
	c.npick++
}

func (c *CA) Choose(n int) int { return c.inner.Choose(n) }

// End learns from the iteration's steps, as the runtime handed them
// (StepReader), or from tr if it handed none.
func (c *CA) End(tr *trace.Trace) {
	c.inner.End(tr)
	c.stats = CAStats{}
	switch {
	case !c.reads:
		return
	case c.steps.done:
		if !c.steps.whole {
			return
		}
	case tr != nil:
		c.steps.reset()
		c.steps.readTrace(tr, c.table)
	default:
		return
	}
	c.learnSteps()
}

// Divergence passes on the inner strategy's explanation (see Strategy.Next).
func (c *CA) Divergence() string {
	if d, ok := c.inner.(interface{ Divergence() string }); ok {
		return d.Divergence()
	}
	return c.inner.Name() + " could not continue"
}
