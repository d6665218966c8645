package sct

import (
	"fmt"
	"math"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/core"
)

// Strategies are the strategies the suite compares, as in the thesis's
// Table 3.3 (random walk, PCT of depths 2, 3 and 5, POS*), plus basic POS
// and every one with conflict analysis.
var Strategies = []string{
	"random", "pct:2", "pct:3", "pct:5", "pos", "pos*",
	"random+ca", "pct:2+ca", "pct:3+ca", "pct:5+ca", "pos+ca", "pos*+ca",
}

// Options configures Run.
type Options struct {
	Trials     int      // iterations per case and strategy
	Strategies []string // default Strategies
	Cases      []string // names of the cases to run; default all
	Fixed      bool     // run the fixed variants, counting every failure
	Workers    int      // 0: GOMAXPROCS; results do not depend on it
	Seed       uint64   // base of every iteration's seed
}

// Result is one case's outcome.
type Result struct {
	Case Case
	// Hits and Failures count, per strategy, the iterations that hit the
	// bug and those that failed at all.
	Hits, Failures map[string]int
	// First is, per strategy, the failure of the lowest failing iteration
	// if it was not the intended one (with Fixed: any failure): what to look
	// at when a case misbehaves.
	First map[string]*morpheus.Failure
}

// Report is what Run measured.
type Report struct {
	Trials     int
	Fixed      bool
	Strategies []string
	Results    []Result
}

// Run explores every case with every strategy.
func Run(o Options) (*Report, error) {
	if o.Trials <= 0 {
		return nil, fmt.Errorf("sct: trials must be positive")
	}
	strats := o.Strategies
	if len(strats) == 0 {
		strats = Strategies
	}
	cases, err := selectCases(o.Cases)
	if err != nil {
		return nil, err
	}
	rep := &Report{Trials: o.Trials, Fixed: o.Fixed, Strategies: strats}
	for _, c := range cases {
		res := Result{Case: c, Hits: map[string]int{}, Failures: map[string]int{}, First: map[string]*morpheus.Failure{}}
		prog, hit := c.Buggy, c.Hit
		if o.Fixed {
			prog, hit = c.Fixed, func(string, string) bool { return true }
		}
		for _, s := range strats {
			opts := []morpheus.Option{
				morpheus.Iterations(o.Trials), morpheus.Strategy(s), morpheus.Name(c.Name),
				morpheus.Seed(core.NameKey("sct", fmt.Sprint(o.Seed), c.Name, s)),
				morpheus.CountHits(hit),
			}
			if o.Workers > 0 {
				opts = append(opts, morpheus.Workers(o.Workers))
			}
			r, err := morpheus.Explore(prog, opts...)
			if err != nil {
				return nil, fmt.Errorf("%s with %s: %w", c.Name, s, err)
			}
			if r.Iterations != o.Trials {
				return nil, fmt.Errorf("%s with %s: %d of %d iterations ran", c.Name, s, r.Iterations, o.Trials)
			}
			res.Hits[s], res.Failures[s] = r.Hits, r.Failures
			if r.Failure != nil && (o.Fixed || !c.Hit(r.Failure.Kind, r.Failure.Message)) {
				res.First[s] = r.Failure
			}
		}
		rep.Results = append(rep.Results, res)
	}
	return rep, nil
}

func selectCases(names []string) ([]Case, error) {
	all := Cases()
	if len(names) == 0 {
		return all, nil
	}
	var out []Case
	for _, n := range names {
		found := false
		for _, c := range all {
			if c.Name == n {
				out, found = append(out, c), true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("sct: no case %q", n)
		}
	}
	return out, nil
}

// Ratio returns a case's hit ratio under a strategy.
func (r *Report) Ratio(res *Result, strategy string) float64 {
	return float64(res.Hits[strategy]) / float64(r.Trials)
}

// Geomean returns the geometric mean of a strategy's hit ratios over the
// cases, a case never hit counting as 1/Trials (the thesis's convention).
func (r *Report) Geomean(strategy string) float64 {
	if len(r.Results) == 0 {
		return 0
	}
	sum := 0.0
	for i := range r.Results {
		v := r.Ratio(&r.Results[i], strategy)
		if v == 0 {
			v = 1 / float64(r.Trials)
		}
		sum += math.Log(v)
	}
	return math.Exp(sum / float64(len(r.Results)))
}
