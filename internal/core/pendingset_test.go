package core

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// walk returns the ids in s in the order all yields them.
func (s *pendingSet) walk() []int32 { return slices.Collect(s.all()) }

// Random adds and removes against a map: the walk visits exactly the ids
// in the set, in ascending order, and the summary marks exactly the
// non-zero words; reset empties both.
func TestPendingSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s pendingSet
	for round := range 4 {
		n := []int32{10, 70, 5000, 300_000}[round]
		in := map[int32]bool{}
		for range 20_000 {
			id := rng.Int32N(n)
			if in[id] {
				s.remove(id)
				delete(in, id)
			} else {
				s.fit(id)
				s.add(id)
				in[id] = true
			}
		}
		var want []int32
		for id := range in {
			want = append(want, id)
		}
		slices.Sort(want)
		if got := s.walk(); !slices.Equal(got, want) {
			t.Fatalf("ids below %d: walk gives %d ids, want %d (or another order)", n, len(got), len(want))
		}
		for i, w := range s.words {
			if (w != 0) != (s.sum[i>>6]>>(i&63)&1 == 1) {
				t.Fatalf("ids below %d: word %d is %#x but its summary bit is %d", n, i, w, s.sum[i>>6]>>(i&63)&1)
			}
		}
		s.reset()
		if len(s.walk()) != 0 || len(s.words) != 0 || len(s.sum) != 0 {
			t.Fatal("reset left ids")
		}
	}
}
