package morpheus_test

import (
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// counted is the knowledge of counter: how many iterations have reported.
type counted struct{ n int }

func (k *counted) Merge(o strategy.Knowledge) { k.n += o.(*counted).n }
func (k *counted) Clone() strategy.Knowledge  { c := *k; return &c }

// counter is a user's learning strategy: it counts the iterations that
// reported back, and records, per iteration seed, how many it knew of.
type counter struct {
	mu   *sync.Mutex
	saw  map[uint64]int
	k    *counted
	seed uint64
	keep bool
}

func (c *counter) Name() string                   { return "counter" }
func (c *counter) Begin(seed uint64)              { c.seed = seed }
func (c *counter) Next(enabled []strategy.Op) int { return 0 }
func (c *counter) Choose(n int) int               { return 0 }
func (c *counter) End(*trace.Trace)               {}
func (c *counter) Prior() strategy.Knowledge      { return &counted{} }
func (c *counter) Learn(k strategy.Knowledge, keep bool) {
	c.k = k.(*counted)
	c.keep = keep
}
func (c *counter) Learned() strategy.Knowledge {
	c.mu.Lock()
	c.saw[c.seed] = c.k.n
	if !c.keep {
		c.saw[c.seed] = -c.k.n // nothing reads what it learns
	}
	c.mu.Unlock()
	return &counted{n: 1}
}

func TestStrategyLearnerEpochs(t *testing.T) {
	run := func(workers int) map[uint64]int {
		var mu sync.Mutex
		saw := map[uint64]int{}
		newCounter := func() strategy.Strategy { return &counter{mu: &mu, saw: saw} }
		res, err := morpheus.Explore(func(e *morpheus.Env) {}, morpheus.Strategy(newCounter),
			morpheus.Iterations(100), morpheus.Workers(workers), morpheus.Seed(7))
		if err != nil {
			t.Fatal(err)
		}
		if res.Strategy != "counter" || res.Iterations != 100 {
			t.Fatalf("result: strategy %q, %d iterations", res.Strategy, res.Iterations)
		}
		return saw
	}
	one := run(1)
	// Epochs of 16, 32, 64 iterations: an iteration knows of every
	// iteration of the epochs before its own, whatever ran before it; in
	// the last epoch of the run nothing reads what it learns (negative).
	hist := map[int]int{}
	for _, n := range one {
		hist[n]++
	}
	if want := map[int]int{0: 16, 16: 32, -48: 52}; !maps.Equal(hist, want) {
		t.Errorf("iterations per knowledge: %v, want %v", hist, want)
	}
	if two := run(2); !maps.Equal(one, two) {
		t.Errorf("what iterations knew depends on the number of workers")
	}
}

func TestStrategyFuncErrors(t *testing.T) {
	_, err := morpheus.Explore(func(e *morpheus.Env) {}, morpheus.Strategy(func() strategy.Strategy { return nil }))
	if err == nil || !strings.Contains(err.Error(), "returned nil") {
		t.Errorf("a Strategy function returning nil: error %v", err)
	}
	// A name given after a function wins, and the other way round.
	res, err := morpheus.Explore(func(e *morpheus.Env) {}, morpheus.Iterations(1),
		morpheus.Strategy(func() strategy.Strategy { return &sticky{} }), morpheus.Strategy("random"))
	if err != nil || res.Strategy != "random" {
		t.Errorf("name after function: strategy %v, error %v", res, err)
	}
	if _, err := morpheus.Explore(func(e *morpheus.Env) {}, morpheus.Strategy("nonsense")); err == nil {
		t.Error("an unknown strategy name: no error")
	}
}
