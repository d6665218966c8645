package explore

import "testing"

// A shard's share of a run's iterations is the count of those it runs:
// its progress line reads "n/share", and ends at share/share.
func TestShardShare(t *testing.T) {
	for _, c := range []struct {
		s           Shard
		total, want int
	}{
		{Shard{}, 100000, 100000},
		{Shard{I: 0, N: 2}, 100000, 50000},
		{Shard{I: 1, N: 2}, 5, 2},
		{Shard{I: 0, N: 2}, 5, 3},
		{Shard{I: 2, N: 3}, 2, 0},
		{Shard{I: 1, N: 3}, 0, 0},
	} {
		if got := c.s.share(c.total); got != c.want {
			t.Errorf("%v of %d: share %d, want %d", c.s, c.total, got, c.want)
		}
		n := 0
		for j := int64(0); c.s.iteration(j) < int64(c.total); j++ {
			n++
		}
		if n != c.want {
			t.Errorf("%v of %d: runs %d iterations, share says %d", c.s, c.total, n, c.want)
		}
	}
}
