package bugs_test

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/bugs"
)

// findBudget is, per scenario, the strategy and the iterations within which
// the buggy variant must be found. C6023 is rare by nature (the Morpheus
// paper's POS hit it 20 times in 100,000 trials), so it gets more.
var findBudget = map[string]struct {
	strategy   string
	iterations int
}{
	"gproc-1":          {"pos+ca", 2000},
	"locks-1":          {"pos+ca", 2000},
	"ms-1":             {"pos+ca", 2000},
	"mnesia-2":         {"pos", 2000},
	"C6023":            {"pos", 100000},
	"storage":          {"pos+ca", 2000},
	"extent-repair":    {"pos+ca", 2000},
	"storage-liveness": {"random", 10},
}

// Every buggy scenario is found, and the first failure is the intended one:
// Explore stops at the first failing iteration, which must be a hit.
func TestBuggyFound(t *testing.T) {
	for _, sc := range append(bugs.All(), bugs.Extra()...) {
		t.Run(sc.Name, func(t *testing.T) {
			b, ok := findBudget[sc.Name]
			if !ok {
				t.Fatalf("no budget for %s", sc.Name)
			}
			res, err := morpheus.Explore(sc.Test(false), append([]morpheus.Option{morpheus.Name(sc.Name),
				morpheus.Strategy(b.strategy), morpheus.Iterations(b.iterations), morpheus.Seed(1)}, sc.Options...)...)
			if err != nil {
				t.Fatal(err)
			}
			f := res.Failure
			if f == nil {
				t.Fatalf("%s not found by %s in %d iterations", sc.Name, b.strategy, res.Iterations)
			}
			if !sc.Hit(f.Kind, f.Message) {
				t.Fatalf("first failure is not the intended one:\n%s", f.Report())
			}
			t.Logf("found by %s in iteration %d: %s: %s", b.strategy, f.Iteration, f.Kind, strings.SplitN(f.Message, "\n", 2)[0])
		})
	}
}

// fixedIterations is how many iterations a fixed variant must pass under
// each strategy of fixedStrategies (1500 if not listed). An extent-repair
// iteration runs twenty virtual seconds of timers, some 700 steps, so it
// gets fewer; the long campaign is bench bugs -fixed.
var fixedIterations = map[string]int{"extent-repair": 300}

var fixedStrategies = []string{"random", "pos", "pos+ca"}

// The fixed variants never fail, whatever the strategy: a checker that fails
// on correct code is broken.
func TestFixedPasses(t *testing.T) {
	for _, sc := range append(bugs.All(), bugs.Extra()...) {
		for _, st := range fixedStrategies {
			t.Run(sc.Name+"/"+st, func(t *testing.T) {
				t.Parallel() // explorations of their own; one after the other, over 4 minutes under -race on a busy machine
				n := fixedIterations[sc.Name]
				if n == 0 {
					n = 1500
				}
				if testing.Short() {
					n /= 10
				}
				res, err := morpheus.Explore(sc.Test(true), append([]morpheus.Option{morpheus.Name(sc.Name),
					morpheus.Strategy(st), morpheus.Iterations(n), morpheus.Seed(2)}, sc.Options...)...)
				if err != nil {
					t.Fatal(err)
				}
				if f := res.Failure; f != nil {
					t.Fatalf("the fixed %s failed:\n%s", sc.Name, f.Report())
				}
				if res.Iterations != n {
					t.Fatalf("%d iterations, want %d", res.Iterations, n)
				}
			})
		}
	}
}

func TestSuite(t *testing.T) {
	seen := map[string]bool{}
	for _, sc := range append(bugs.All(), bugs.Extra()...) {
		if sc.Name == "" || sc.Test == nil || sc.Hit == nil || sc.Source == "" || seen[sc.Name] {
			t.Errorf("scenario %q: incomplete or duplicate", sc.Name)
		}
		seen[sc.Name] = true
		if got, ok := bugs.Lookup(sc.Name); !ok || got.Name != sc.Name {
			t.Errorf("Lookup(%q) = %q, %v", sc.Name, got.Name, ok)
		}
		// A hit is the intended failure only: other kinds never count.
		for _, k := range []string{"deadlock", "step-limit", "clock-limit", "nondeterminism", "uncontrolled-blocking"} {
			if sc.Hit(k, "") {
				t.Errorf("%s: Hit accepts a %s failure", sc.Name, k)
			}
		}
	}
	if len(bugs.All()) != 7 {
		t.Errorf("%d scenarios in the suite, want 7", len(bugs.All()))
	}
	if _, ok := bugs.Lookup("nosuch"); ok {
		t.Error("Lookup found nosuch")
	}
}
