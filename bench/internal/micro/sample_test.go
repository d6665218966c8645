package micro_test

import (
	"math"
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/bench/internal/micro"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

func TestSampleMatchesExactRandomWalk(t *testing.T) {
	s := func(a ...string) []string { return a }
	p := prog(t, s("0w", "1w", "0r"), s("1w", "0w"), s("0r", "1r"))
	sp := analyze(t, p)
	const n = 60000
	counts, err := micro.Sample(sp, micro.Sampler{Name: "random", New: func() strategy.Strategy { return strategy.NewRandom() }}, n, 9, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range counts {
		want := sp.RW[i]
		sd := math.Sqrt(want * (1 - want) / n)
		if got := float64(c) / n; math.Abs(got-want) > 5*sd {
			t.Errorf("partial order %d: sampled %.4f, exact %.4f", i, got, want)
		}
	}
}

func TestSampleDoesNotDependOnWorkers(t *testing.T) {
	ps, err := micro.Suite(false, 5)
	if err != nil {
		t.Fatal(err)
	}
	sp := analyze(t, ps[6])
	for _, sm := range micro.Samplers(sp, true) {
		var prev []int64
		for _, w := range []int{1, 3} {
			counts, err := micro.Sample(sp, sm, 2*16384+1, 1, w) // 3 chunks
			if err != nil {
				t.Fatal(err)
			}
			if prev != nil && !slices.Equal(prev, counts) {
				t.Fatalf("%s: counts with %d workers differ from fewer", sm.Name, w)
			}
			prev = counts
		}
	}
}

// counting wraps a strategy and counts the ops it is offered, by kind.
type counting struct {
	strategy.Strategy
	starts, events int
}

func (c *counting) Next(enabled []strategy.Op) int {
	i := c.Strategy.Next(enabled)
	if enabled[i].Kind == trace.KindStart {
		c.starts++
	} else {
		c.events++
		if enabled[i].Res == 0 {
			panic("an event without a resource")
		}
	}
	return i
}

func TestExecStartSteps(t *testing.T) {
	p, _ := micro.Generate(micro.Uniform, 1)
	for _, dummy := range []bool{false, true} {
		x, err := micro.NewExec(p, dummy)
		if err != nil {
			t.Fatal(err)
		}
		c := &counting{Strategy: strategy.NewPCT(3, 20)}
		if _, err := x.Run(c, 1); err != nil {
			t.Fatal(err)
		}
		wantStarts := 0
		if dummy {
			wantStarts = 4
		}
		if c.starts != wantStarts || c.events != 16 || len(x.Order()) != 16 {
			t.Errorf("dummy=%v: %d start steps and %d events, want %d and 16", dummy, c.starts, c.events, wantStarts)
		}
	}
}

func TestDeadlock(t *testing.T) {
	// Each thread's second event waits for the other thread's second event.
	p, err := micro.NewProgram("deadlock", []micro.Event{
		{Thread: 0, After: -1}, {Thread: 0, After: 3},
		{Thread: 1, After: -1}, {Thread: 1, After: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := micro.Analyze(p); err == nil {
		t.Error("Analyze accepted a program that deadlocks")
	}
	x, _ := micro.NewExec(p, false)
	if _, err := x.Run(strategy.NewRandom(), 1); err == nil {
		t.Error("Run did not report the deadlock")
	}
}

func TestRunReport(t *testing.T) {
	o := micro.Options{Samples: 1000, Seed: 3, Reads: true, Workers: 1}
	r, err := micro.Run(o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{micro.RandomExact, "random", "pct", "rapos", "pos", "pos*-noreads", "pos*"}
	if !slices.Equal(r.Strategies, want) || len(r.Cases) != 10 {
		t.Fatalf("strategies %v, %d cases", r.Strategies, len(r.Cases))
	}
	for _, c := range r.Cases {
		for _, s := range r.Strategies {
			cov, n := c.Coverage[s], c.Covered[s]
			if cov < 0 || cov > 1 || n < 1 || n > c.Space.POs() || (cov > 0) != (n == c.Space.POs()) {
				t.Errorf("%s %s: coverage %v covered %d of %d", c.Space.Program.Name, s, cov, n, c.Space.POs())
			}
		}
		if c.PCTDepth != c.Space.MaxDepth+1 {
			t.Errorf("PCT depth %d for max depth %d", c.PCTDepth, c.Space.MaxDepth)
		}
	}
	// 1000 samples cannot cover thousands of partial orders: the geometric
	// mean is the floor 1/samples, except for the exact random walk.
	if g := r.Geomean("pos*"); math.Abs(g-1.0/1000) > 1e-12 {
		t.Errorf("pos* geomean = %v, want the floor 0.001", g)
	}
	if g := r.Geomean(micro.RandomExact); g <= 0 || g >= 1e-4 {
		t.Errorf("random-exact geomean = %v", g)
	}
	o.Workers = 2
	r2, err := micro.Run(o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Cases {
		for _, s := range r.Strategies {
			if r.Cases[i].Covered[s] != r2.Cases[i].Covered[s] {
				t.Fatalf("results depend on the number of workers")
			}
		}
	}
}
