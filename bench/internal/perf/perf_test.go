package perf

import (
	"testing"
)

// A short run of every measurement, checking that they measure something.
func TestRun(t *testing.T) {
	r, err := Run(20000, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if r.ControlledSeconds <= 0 || r.UncontrolledSeconds <= 0 || r.IterationsPerSecond <= 0 || r.PeakRSSMB <= 0 {
		t.Fatalf("%+v", r)
	}
	if r.GoIterationsPerSecond <= 0 || r.GoSteps < 20 {
		t.Fatalf("small goroutine test: %+v", r)
	}
	if r.StepsPerIteration < 25 || r.StepsPerIteration > 40 {
		t.Fatalf("the small test has %.1f steps per iteration, want about 30", r.StepsPerIteration)
	}
}

func BenchmarkRoundTrip(b *testing.B) {
	b.ReportAllocs()
	if _, err := RunPingPong(b.N); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkGoroutineRoundTrip(b *testing.B) {
	RunGoroutines(b.N)
}

func BenchmarkSmallIteration(b *testing.B) {
	b.ReportAllocs()
	if _, _, err := RunSmall(b.N); err != nil {
		b.Fatal(err)
	}
}
