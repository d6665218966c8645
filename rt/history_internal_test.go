package rt

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/trace"
)

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

// A re-run of a recorded exploration that ran fewer schedules than the
// recording says so, and why: the history did not re-run as recorded.
func TestShortRun(t *testing.T) {
	r := trace.Run{Test: "TestX", Schedules: 147, Shard: 1, Shards: 2} // 73 schedules of shard 1/2
	for _, c := range []struct {
		res  *morpheus.Result
		want string
	}{
		{&morpheus.Result{Iterations: 73}, ""},
		{&morpheus.Result{Iterations: 53, Failure: &morpheus.Failure{Iteration: 105, Kind: "leak"}}, "ran 53 of 73 schedules: its schedule 105 failed (leak)"},
		{&morpheus.Result{Iterations: 10, Stopped: "interrupted"}, "ran 10 of 73 schedules: it stopped (interrupted)"},
	} {
		if got := shortRun(r, c.res); got != c.want {
			t.Errorf("shortRun(%+v) = %q, want %q", c.res, got, c.want)
		}
	}
}
