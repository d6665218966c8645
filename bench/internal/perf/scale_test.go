package perf

import "testing"

// Every workload runs to its end under every strategy of the scale table,
// and its iterations are about as long as asked.
func TestScale(t *testing.T) {
	for _, w := range []string{"actors", "goroutines", "timers"} {
		for _, s := range []string{"random", "pos*", "pos+ca"} {
			for _, tasks := range []int{10, 100} {
				c, err := RunScale(w, s, tasks, 2000, 4000)
				if err != nil {
					t.Fatal(err)
				}
				if c.Skipped || c.Iterations != 2 || c.NsPerStep <= 0 {
					t.Fatalf("%+v", c)
				}
				if c.MeanSteps < 1600 || c.MeanSteps > 2400 {
					t.Errorf("%s, %s, %d tasks: %.0f steps per iteration, want about 2000", w, s, tasks, c.MeanSteps)
				}
			}
		}
	}
	if c, err := RunScale("actors", "random", 1000, 1000, 1000); err != nil || !c.Skipped {
		t.Errorf("a ring of 1000 in 1000 steps: %+v, %v; want it skipped", c, err)
	}
}
