package micro

import (
	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/strategy"
)

// Options configure a run of the benchmark.
type Options struct {
	Samples int    // iterations per strategy and program
	Seed    uint64 // derives the programs and every iteration's seed
	Reads   bool   // the 50%-read variant (Table 3.2) instead of all writes
	Workers int    // goroutines; ≤ 0 means GOMAXPROCS. Results do not depend on it.
}

// RandomExact is the name of random walk's exact coverage, computed rather
// than sampled.
const RandomExact = "random-exact"

// Report is the outcome of a run: per program, per strategy, the coverage.
type Report struct {
	Samples    int
	Strategies []string // column order: RandomExact first, then the samplers
	Cases      []Case
}

// Case is one program's results.
type Case struct {
	Space    *Space
	PCTDepth int                // the d PCT ran with
	Coverage map[string]float64 // minimum over partial orders of hits/samples
	Covered  map[string]int     // partial orders hit at least once
}

// Samplers returns the strategies the benchmark compares on a program with
// space sp: random walk, PCT, RAPOS, POS, POS* and, with reads, POS* blind to
// read-read independence.
//
// PCT runs with the parameters the thesis chose: the fewest that let it reach
// every partial order. d is one more than the program's MaxDepth, the most
// preemptions a partial order needs, and k the number of steps PCT decides:
// the events. Each thread also gets a start op, as the runtime gives every
// task, but PCT runs start ops at once without counting them (they touch
// nothing), so they are not among its k steps; a thread's first event is
// delayed by its priority, as any other.
func Samplers(sp *Space, reads bool) []Sampler {
	p := sp.Program
	d, k := sp.MaxDepth+1, len(p.Events)
	out := []Sampler{
		{Name: "random", New: func() strategy.Strategy { return strategy.NewRandom() }},
		{Name: "pct", New: func() strategy.Strategy { return strategy.NewPCT(d, k) }, Dummy: true},
		{Name: "rapos", New: func() strategy.Strategy { return strategy.NewRAPOS() }},
		{Name: "pos", New: func() strategy.Strategy { return strategy.NewPOS() }},
	}
	if reads {
		out = append(out, Sampler{Name: "pos*-noreads", New: func() strategy.Strategy { return strategy.NewPOSStarNoReads() }})
	}
	return append(out, Sampler{Name: "pos*", New: func() strategy.Strategy { return strategy.NewPOSStar() }})
}

// Run generates the suite's programs, analyzes them, and samples every
// strategy on every program.
func Run(o Options) (*Report, error) {
	progs, err := Suite(o.Reads, o.Seed)
	if err != nil {
		return nil, err
	}
	r := &Report{Samples: o.Samples}
	for k, p := range progs {
		sp, err := Analyze(p)
		if err != nil {
			return nil, err
		}
		c := Case{
			Space:    sp,
			PCTDepth: sp.MaxDepth + 1,
			Coverage: map[string]float64{RandomExact: sp.RWCoverage()},
			Covered:  map[string]int{RandomExact: sp.POs()},
		}
		samplers := Samplers(sp, o.Reads)
		if k == 0 {
			r.Strategies = []string{RandomExact}
			for _, sm := range samplers {
				r.Strategies = append(r.Strategies, sm.Name)
			}
		}
		for _, sm := range samplers {
			counts, err := Sample(sp, sm, o.Samples, mix(mix(o.Seed, uint64(k)), nameHash(sm.Name)), o.Workers)
			if err != nil {
				return nil, err
			}
			lo, covered := counts[0], 0
			for _, n := range counts {
				lo = min(lo, n)
				if n > 0 {
					covered++
				}
			}
			c.Coverage[sm.Name] = float64(lo) / float64(o.Samples)
			c.Covered[sm.Name] = covered
		}
		r.Cases = append(r.Cases, c)
	}
	return r, nil
}

// Geomean returns the geometric mean of strategy name's coverage over the
// cases, with package hitratio's convention: a case it did not cover
// completely counts as 1/Samples (the thesis's conservative convention);
// RandomExact's coverage, computed rather than sampled, has no floor.
func (r *Report) Geomean(name string) float64 {
	v := make([]float64, len(r.Cases))
	for i, c := range r.Cases {
		v[i] = c.Coverage[name]
	}
	floor := hitratio.Floor(r.Samples)
	if name == RandomExact {
		floor = hitratio.Floor()
	}
	return hitratio.Geomean(v, floor)
}

// nameHash is FNV-1a of s: each strategy's iterations get their own seeds,
// which do not depend on the other strategies run.
func nameHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}
