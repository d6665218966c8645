package perf

import "testing"

// The channel ping-pong completes, every round trip on the controlled
// channels. Its cost against the actor ping-pong is a benchmark figure
// (bench perf's chan_ratio, BENCHMARKS.md), not a timed assertion.
func TestChanRoundTrip(t *testing.T) {
	d, err := RunChanPingPong(20_000)
	if err != nil {
		t.Fatal(err)
	}
	if d <= 0 {
		t.Fatalf("duration %v", d)
	}
}

func BenchmarkChanRoundTrip(b *testing.B) {
	b.ReportAllocs()
	if _, err := RunChanPingPong(b.N); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkSmallGoIteration(b *testing.B) {
	b.ReportAllocs()
	if _, _, err := RunSmallGo(b.N); err != nil {
		b.Fatal(err)
	}
}

func TestSmallGo(t *testing.T) {
	_, steps, err := RunSmallGo(200)
	if err != nil {
		t.Fatal(err)
	}
	if steps < 20 || steps > 80 {
		t.Fatalf("the small goroutine test has %.1f steps per iteration, want about fifty", steps)
	}
}
