package strategy

import (
	"math/rand/v2"

	"github.com/morpheus-go/morpheus/trace"
)

// RAPOS is random partial order sampling (Sen, ASE 2007), a baseline for POS.
// It schedules in batches of mutually independent ops:
//
//  1. The first batch draws from all enabled ops (the "schedulable" set).
//  2. Pick one schedulable op uniformly; then consider the other schedulable
//     ops in a uniformly random order and add each, with probability 1/2, if
//     it is independent of every op picked so far (as the authors of POS
//     implement it in Morpheus; a fixed order would favour the ops listed
//     first).
//  3. Run the picked ops, one per step, in enabled order.
//  4. The next schedulable set is the enabled ops that are new since the batch
//     began (including the next op of every task that ran) or that conflict
//     with an op of the batch; if there are none, one enabled op chosen
//     uniformly. Go to 2.
//
// RAPOS can reach every partial order but with no useful lower bound: it can
// be exponentially biased against some (thesis §2.2.3, Figure 2.3).
type RAPOS struct {
	localFirst
	src rand.PCG
	rng *rand.Rand
	// gen is the number of the current batch. seenAt[t] == gen when task t's
	// current op was enabled when the batch began and has not run since.
	gen    uint32
	seenAt []uint32
	// inBatch marks the tasks whose op is picked and has not run yet.
	inBatch []bool
	left    int   // number of tasks marked in inBatch
	ran     []Op  // ops of the current batch that ran
	cand    []int // scratch: schedulable ops, as indexes in enabled
	picked  []int // scratch: ops picked for the batch
}

// NewRAPOS returns RAPOS.
func NewRAPOS() *RAPOS {
	r := &RAPOS{}
	r.rng = rand.New(&r.src)
	return r
}

func (r *RAPOS) Name() string { return "rapos" }

func (r *RAPOS) Begin(seed uint64) {
	r.src.Seed(seedPair(seed))
	// A new generation makes every op new, so the first batch draws from all.
	r.gen++
	if r.gen == 0 {
		clear(r.seenAt)
		r.gen = 1
	}
	clear(r.inBatch)
	r.left = 0
	r.ran = r.ran[:0]
}

func (r *RAPOS) Next(enabled []Op) int {
	if i := firstLocal(enabled); i >= 0 {
		return i
	}
	if r.left > 0 {
		if i := r.fromBatch(enabled); i >= 0 {
			return i
		}
		// The rest of the batch is no longer enabled (another op disabled it,
		// which independent ops should not do): start a new batch.
		clear(r.inBatch)
		r.left = 0
	}
	r.newBatch(enabled)
	return r.fromBatch(enabled)
}

// fromBatch runs the first enabled op of the batch, or returns -1.
func (r *RAPOS) fromBatch(enabled []Op) int {
	for i := range enabled {
		t := enabled[i].Task
		if int(t) < len(r.inBatch) && r.inBatch[t] {
			r.inBatch[t] = false
			r.left--
			r.seenAt[t] = 0 // its next op is new
			r.ran = append(r.ran, enabled[i])
			return i
		}
	}
	return -1
}

// newBatch picks the next batch among enabled.
func (r *RAPOS) newBatch(enabled []Op) {
	r.cand = r.cand[:0]
	for i := range enabled {
		op := &enabled[i]
		r.seenAt = grow(r.seenAt, op.Task, 0)
		r.inBatch = grow(r.inBatch, op.Task, false)
		if r.seenAt[op.Task] != r.gen || r.conflictsRan(op) {
			r.cand = append(r.cand, i)
		}
	}
	if len(r.cand) == 0 {
		r.cand = append(r.cand, r.rng.IntN(len(enabled)))
	}
	// Draw the candidates in random order: the first always joins the batch,
	// the others with probability 1/2 if independent of those picked.
	for k := len(r.cand); k > 0; k-- {
		j := r.rng.IntN(k)
		i := r.cand[j]
		r.cand[j] = r.cand[k-1]
		switch {
		case k == len(r.cand):
			r.picked = append(r.picked[:0], i)
		case r.independent(&enabled[i], enabled) && r.rng.Uint32()&1 == 1:
			r.picked = append(r.picked, i)
		}
	}
	r.gen++
	if r.gen == 0 {
		clear(r.seenAt)
		r.gen = 1
	}
	for i := range enabled {
		r.seenAt[enabled[i].Task] = r.gen
	}
	for _, i := range r.picked {
		r.inBatch[enabled[i].Task] = true
	}
	r.left = len(r.picked)
	r.ran = r.ran[:0]
}

func (r *RAPOS) conflictsRan(op *Op) bool {
	for i := range r.ran {
		if conflicts(op, &r.ran[i]) {
			return true
		}
	}
	return false
}

func (r *RAPOS) independent(op *Op, enabled []Op) bool {
	for _, i := range r.picked {
		if conflicts(op, &enabled[i]) {
			return false
		}
	}
	return true
}

func (r *RAPOS) Choose(n int) int { return r.rng.IntN(n) }

func (r *RAPOS) End(*trace.Trace) {}
