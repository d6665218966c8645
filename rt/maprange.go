package rt

import (
	"cmp"
	"iter"
	"math/rand/v2"
	"slices"
)

// RangeMap stands for a range over a map with ordered keys: the rewriter
// turns for k, v := range m into for k, v := range __rt.RangeMap(m). Under
// control it visits the keys present when the loop starts in an order drawn
// from the schedule's seed (sorted, then shuffled by a generator of its own,
// so the same seed, and a replay, give the same order, and math/rand's
// draws are not disturbed). As in Go, an entry deleted before it is reached
// is not visited, and one added during the loop may not be (here: never);
// the value is the entry's value when it is reached. Keys that are not
// equal to themselves (NaN) are not visited. Outside control it is Go's
// range.
func RangeMap[M ~map[K]V, K cmp.Ordered, V any](m M) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		g := mapOrder()
		if g == nil {
			for k, v := range m {
				if !yield(k, v) {
					return
				}
			}
			return
		}
		keys := make([]K, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		g.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		for _, k := range keys {
			v, ok := m[k]
			if !ok {
				continue
			}
			if !yield(k, v) {
				return
			}
		}
	}
}

// randStreamMap is the stream of the generator of map orders.
const randStreamMap = 0x72616e6d

// mapOrder returns the schedule's generator of map orders, or nil outside
// control.
func mapOrder() *rand.Rand {
	g := gens()
	if g == nil {
		return nil
	}
	if g.maps == nil {
		g.pcgMap.Seed(g.seed, randStreamMap)
		g.maps = rand.New(&g.pcgMap)
	}
	return g.maps
}
