package strategy

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/morpheus-go/morpheus/trace"
)

// PCT is probabilistic concurrency testing with bug depth d (Burckhardt et al.,
// ASPLOS 2010). Each task gets a distinct random priority; d-1 change points
// are drawn independently and uniformly in [1, k], where k bounds the number
// of steps; at every step the enabled op of the highest-priority task runs,
// and when step number c_i is a change point, the task that just ran drops to
// priority -i, below every task that has not been lowered yet. A bug that
// needs d ordering constraints is found with probability at least 1/(n·k^(d-1))
// for n tasks.
//
// Priorities are drawn the first time a task is enabled, as a uniform real in
// [0, 1): a new task thus takes a uniformly random rank among the tasks not yet
// lowered, as if all priorities had been drawn at the start (the original
// algorithm knows n in advance; ties, of probability 2^-53, go to the task
// listed first). Start and spawn steps touch nothing another task sees
// (Local): PCT runs them at once and does not count them, so its steps and
// change points are its own decisions; a task's first real op is delayed by
// its priority like any other.
//
// k is either fixed (NewPCT(d, k), "pct:D:K") or estimated: the largest number
// of steps of the earlier iterations this strategy ran, and 1000 before the
// first. An estimated k makes an iteration depend on the iterations before it,
// so parallel workers that must reproduce each other's runs should fix K.
type PCT struct {
	localFirst
	d, k     int // depth; fixed step bound or 0
	maxSteps int // largest step count seen, for the estimate
	src      rand.PCG
	rng      *rand.Rand
	pri      []float64 // per task; unset when not yet enabled in this iteration
	change   []pctChange
	next     int // index in change of the next change point
	step     int // steps taken in this iteration
}

// pctChange is change point i (1-based) at step `at`.
type pctChange struct{ at, i int }

var pctUnset = math.Inf(-1)

// DefaultPCTSteps is PCT's step bound before any iteration ran.
const DefaultPCTSteps = 1000

// NewPCT returns PCT with depth d ≥ 1 and step bound k, or k estimated from
// earlier iterations if k ≤ 0.
func NewPCT(d, k int) *PCT {
	p := &PCT{d: max(d, 1), k: max(k, 0)}
	p.rng = rand.New(&p.src)
	return p
}

// Name returns "pct:D" or, with a fixed step bound, "pct:D:K".
func (p *PCT) Name() string {
	s := "pct:" + strconv.Itoa(p.d)
	if p.k > 0 {
		s += ":" + strconv.Itoa(p.k)
	}
	return s
}

// Bound returns the step bound the next iteration uses.
func (p *PCT) Bound() int {
	switch {
	case p.k > 0:
		return p.k
	case p.maxSteps > 0:
		return p.maxSteps
	}
	return DefaultPCTSteps
}

func (p *PCT) Begin(seed uint64) {
	p.src.Seed(seedPair(seed))
	for i := range p.pri {
		p.pri[i] = pctUnset
	}
	k := p.Bound()
	p.change = p.change[:0]
	for i := 1; i < p.d; i++ {
		c := pctChange{at: 1 + p.rng.IntN(k), i: i}
		// Insertion sort by step, then by i: d is small.
		j := len(p.change)
		p.change = append(p.change, c)
		for j > 0 && (p.change[j-1].at > c.at || p.change[j-1].at == c.at && p.change[j-1].i > c.i) {
			p.change[j] = p.change[j-1]
			j--
		}
		p.change[j] = c
	}
	p.next = 0
	p.step = 0
}

func (p *PCT) Next(enabled []Op) int {
	if i := firstLocal(enabled); i >= 0 {
		return i // not a step: change points count decisions
	}
	best, bestPri := -1, 0.0
	for i := range enabled {
		t := enabled[i].Task
		p.pri = grow(p.pri, t, pctUnset)
		pr := p.pri[t]
		if pr == pctUnset {
			pr = p.rng.Float64()
			p.pri[t] = pr
		}
		if best < 0 || pr > bestPri {
			best, bestPri = i, pr
		}
	}
	p.step++
	for p.next < len(p.change) && p.change[p.next].at <= p.step {
		if p.change[p.next].at == p.step {
			p.pri[enabled[best].Task] = -float64(p.change[p.next].i)
		}
		p.next++
	}
	return best
}

func (p *PCT) Choose(n int) int { return p.rng.IntN(n) }

func (p *PCT) End(*trace.Trace) { p.maxSteps = max(p.maxSteps, p.step) }
