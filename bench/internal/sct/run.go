package sct

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
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

// Report is what Run measured: the hit-ratio matrix of the cases (rows, in
// the order of Cases) and the strategies.
type Report struct {
	*hitratio.Matrix
	Fixed bool
	Cases []Case
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
	hc := make([]hitratio.Case, len(cases))
	for i, c := range cases {
		hc[i] = hitratio.Case{Name: c.Name, Test: c.Buggy, Hit: c.Hit}
		if o.Fixed {
			hc[i] = hitratio.Case{Name: c.Name, Test: c.Fixed} // every failure is a hit
		}
	}
	m, err := hitratio.Run(hc, hitratio.Config{Trials: o.Trials, Strategies: strats, Workers: o.Workers,
		Seed: func(c, s string) uint64 { return core.NameKey("sct", fmt.Sprint(o.Seed), c, s) }})
	if err != nil {
		return nil, err
	}
	for i, row := range m.Cells {
		for j, cell := range row {
			if cell.Iterations != o.Trials {
				return nil, fmt.Errorf("%s with %s: %d of %d iterations ran", m.Cases[i], m.Strategies[j], cell.Iterations, o.Trials)
			}
		}
	}
	return &Report{Matrix: m, Fixed: o.Fixed, Cases: cases}, nil
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

// First returns the failure of case i's lowest failing iteration under
// strategy j if it was not the intended one (with Fixed: any failure): what
// to look at when a case misbehaves.
func (r *Report) First(i, j int) *morpheus.Failure {
	c := r.Cells[i][j]
	if c.Failure != nil && (r.Fixed || c.FirstHitIteration < 0) {
		return c.Failure
	}
	return nil
}
