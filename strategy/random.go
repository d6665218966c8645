package strategy

import (
	"math/rand/v2"

	"github.com/morpheus-go/morpheus/trace"
)

// Random is the random walk: at every step it picks uniformly among the
// enabled ops, and every choice uniformly among its values. It is unbiased per
// step, which makes it exponentially unlikely to delay one op many times.
type Random struct {
	localFirst
	rng rand.Rand
	src rand.PCG
}

// NewRandom returns a random-walk strategy.
func NewRandom() *Random {
	r := &Random{}
	r.rng = *rand.New(&r.src)
	return r
}

func (r *Random) Name() string      { return "random" }
func (r *Random) Begin(seed uint64) { r.src.Seed(seed, seed^0x9e3779b97f4a7c15) }
func (r *Random) Next(enabled []Op) int {
	if i := firstLocal(enabled); i >= 0 {
		return i
	}
	return r.rng.IntN(len(enabled))
}
func (r *Random) Choose(n int) int { return r.rng.IntN(n) }
func (r *Random) End(*trace.Trace) {}
