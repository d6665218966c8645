package hb

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// joinTestLengths are clock lengths around the vector widths of the join
// kernels and their tails.
var joinTestLengths = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1001}

// joinTestClocks returns two clocks of n random entries, some equal, some
// with the top bit set.
func joinTestClocks(n int) (VC, VC) {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	a, b := make(VC, n), make(VC, n)
	for i := range a {
		a[i], b[i] = rng.Uint32()>>rng.IntN(32), rng.Uint32()>>rng.IntN(32)
		if rng.IntN(4) == 0 {
			b[i] = a[i]
		}
	}
	return a, b
}

// TestJoinBothAll: joinBoth and joinAll leave every clock the entry-wise
// maximum of them all, joinInto the first.
func TestJoinBothAll(t *testing.T) {
	for _, n := range joinTestLengths {
		a, b := joinTestClocks(n)
		c, _ := joinTestClocks(n + 1)
		c = c[:n]
		want := make(VC, n)
		for i := range want {
			want[i] = max(a[i], b[i], c[i])
		}
		a2, b2 := a.Clone(), b.Clone()
		joinBoth(a2, b2)
		for i := range a2 {
			if m := max(a[i], b[i]); a2[i] != m || b2[i] != m {
				t.Fatalf("joinBoth, %d entries: entry %d is %d and %d, want %d", n, i, a2[i], b2[i], m)
			}
		}
		a3, b3 := a.Clone(), b.Clone()
		joinInto(a3, b3)
		for i := range a3 {
			if m := max(a[i], b[i]); a3[i] != m || b3[i] != b[i] {
				t.Fatalf("joinInto, %d entries: entry %d is %d and %d, want %d and %d", n, i, a3[i], b3[i], m, b[i])
			}
		}
		joinAll(a, b, c)
		if !slices.Equal(a, want) || !slices.Equal(b, want) || !slices.Equal(c, want) {
			t.Fatalf("joinAll, %d entries: %v %v %v, want %v", n, a, b, c, want)
		}
	}
}
