package rt

import "testing"

// A recorded exploration's bound re-runs exactly the schedules its shard
// ran: as many, and none after its failing one.
func TestScheduleBound(t *testing.T) {
	for _, c := range []struct{ iterations, failed, k, m, want int }{
		{0, -1, 0, 1, 0},
		{5, -1, 0, 1, 5},
		{5, 4, 0, 1, 5},
		{4, 6, 0, 2, 7}, // shard 0/2 ran 0, 2, 4, 6: 6 failed
		{6, -1, 0, 2, 11},
		{6, -1, 1, 2, 12},
		{1, -1, 2, 3, 3},
	} {
		got := scheduleBound(c.iterations, c.failed, c.k, c.m)
		if got != c.want {
			t.Errorf("scheduleBound(%d, %d, %d/%d) = %d, want %d", c.iterations, c.failed, c.k, c.m, got, c.want)
		}
		if c.failed < 0 && shardShare(got, c.k, c.m) != c.iterations {
			t.Errorf("shard %d/%d below %d runs %d schedules, want %d", c.k, c.m, got, shardShare(got, c.k, c.m), c.iterations)
		}
	}
}
