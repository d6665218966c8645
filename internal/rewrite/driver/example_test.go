package driver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// Run rewrites a package, builds its tests once and runs them under
// morpheus in parallel processes; each failing test comes with a trace
// that replays it (Config.Replay).
func ExampleRun() {
	sum, err := driver.Run(context.Background(), driver.Config{
		Dir: ".", Patterns: []string{"./..."}, Schedules: 1000, Jobs: 2,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range sum.Packages {
		n, rate := p.Schedules()
		fmt.Printf("%s: %d schedules, %.0f/s\n", p.Path, n, rate)
		for _, t := range p.Tests {
			if t.Failure != "" {
				fmt.Printf("%s failed; replay %s\n", t.Name, t.Trace)
			}
		}
	}
}
