package perf

import "testing"

// A controlled channel round trip costs at most three actor round trips
// (the bench's target), and a steady-state run allocates nothing per op
// beyond the trace, which grows by whole chunks.
func TestChanRoundTrip(t *testing.T) {
	const n = 200_000
	if testing.Short() || raceEnabled {
		t.Skip("timing: not with -short or the race detector")
	}
	best := 1e9
	for range 3 { // the best of three tames a noisy machine
		a, err := RunPingPong(n)
		if err != nil {
			t.Fatal(err)
		}
		c, err := RunChanPingPong(n)
		if err != nil {
			t.Fatal(err)
		}
		best = min(best, c.Seconds()/a.Seconds())
	}
	t.Logf("channel/actor round trip: %.2f", best)
	if best > 3 {
		t.Errorf("a channel round trip costs %.2f actor round trips, want ≤ 3", best)
	}
}

func BenchmarkChanRoundTrip(b *testing.B) {
	b.ReportAllocs()
	if _, err := RunChanPingPong(b.N); err != nil {
		b.Fatal(err)
	}
}
