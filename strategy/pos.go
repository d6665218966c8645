package strategy

import (
	"math/rand/v2"

	"github.com/morpheus-go/morpheus/trace"
)

// POS is basic partial order sampling (Yuan et al., CAV 2018; thesis
// Algorithm 1). Every op draws an independent priority, uniform in [0, 1), the
// first time it is enabled, and keeps it until it runs; at every step the
// enabled op with the highest priority runs.
//
// Whether op B runs before op A depends only on the priorities of the ops
// involved in that ordering, not on how many unrelated ops the program has: an
// ordering in which B waits for k ops needs only Pri(B) below the priorities of
// those ops and of A, of probability 1/(k+2). Because a priority is kept while
// the op waits, comparisons propagate along chains of delays (the bias POS*
// removes).
//
// Priorities are kept per task: a task has at most one enabled op, and the
// op that follows the one that ran is a new op with a new priority.
type POS struct {
	posPri
	localFirst
}

// NewPOS returns basic POS.
func NewPOS() *POS {
	p := &POS{}
	p.init()
	return p
}

func (p *POS) Name() string { return "pos" }

func (p *POS) Next(enabled []Op) int {
	if i := firstLocal(enabled); i >= 0 {
		return i
	}
	best := p.pick(enabled)
	p.pri[enabled[best].Task] = posUnset
	return best
}

// posPri is the state POS and POS* share: a random source and the current
// priority of each task's enabled op.
type posPri struct {
	src rand.PCG
	rng *rand.Rand
	pri []float64 // per task; posUnset when the task's op has no priority yet
}

const posUnset = -1.0

func (p *posPri) init() { p.rng = rand.New(&p.src) }

func (p *posPri) Begin(seed uint64) {
	p.src.Seed(seedPair(seed))
	for i := range p.pri {
		p.pri[i] = posUnset
	}
}

// pick gives a priority to every enabled op that has none, in enabled order,
// and returns the index of the op with the highest (the first one on a tie).
func (p *posPri) pick(enabled []Op) int {
	best, bestPri := 0, posUnset
	for i := range enabled {
		t := enabled[i].Task
		p.pri = grow(p.pri, t, posUnset)
		pr := p.pri[t]
		if pr == posUnset {
			pr = p.rng.Float64()
			p.pri[t] = pr
		}
		if pr > bestPri {
			best, bestPri = i, pr
		}
	}
	return best
}

func (p *posPri) Choose(n int) int { return p.rng.IntN(n) }

func (p *posPri) End(*trace.Trace) {}
