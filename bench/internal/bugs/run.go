package bugs

import (
	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
)

// Strategies are the columns of bench bugs's table, as in Morpheus Table 3
// (PCT with depth 5, as the paper ran it).
var Strategies = []string{"random", "random+ca", "pct:5", "pct:5+ca", "pos", "pos+ca", "pos*", "pos*+ca"}

// Config configures Run.
type Config struct {
	Trials     int      // iterations per scenario and strategy
	Strategies []string // default Strategies
	Seed       uint64   // the base seed of every run
	Fixed      bool     // run the fixed variants; their failures are what counts
	// Done, if not nil, is called after each scenario and strategy.
	Done func(c hitratio.Case, strategy string, cell hitratio.Cell)
}

// Run measures the hit ratio of every strategy on every scenario: how many
// of c.Trials iterations fail with the scenario's intended failure (with
// Fixed: cell.Failures counts every failure of the fixed system).
func Run(scenarios []Scenario, c Config) (*hitratio.Matrix, error) {
	strats := c.Strategies
	if len(strats) == 0 {
		strats = Strategies
	}
	cases := make([]hitratio.Case, len(scenarios))
	for i, sc := range scenarios {
		cases[i] = hitratio.Case{Name: sc.Name, Test: sc.Test(c.Fixed), Hit: sc.Hit, Options: sc.Options}
	}
	return hitratio.Run(cases, hitratio.Config{Trials: c.Trials, Strategies: strats, Done: c.Done,
		Seed: func(string, string) uint64 { return c.Seed }})
}
