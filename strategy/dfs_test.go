package strategy_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// explore runs s until it is exhausted (at most limit iterations) and returns
// the schedules it ran.
func explore(t *testing.T, s strategy.Strategy, p prog, limit int) []string {
	t.Helper()
	var out []string
	for i := 0; i < limit; i++ {
		o, c, ok := run(s, p, uint64(i))
		if !ok {
			t.Fatalf("%s stopped at iteration %d", s.Name(), i)
		}
		out = append(out, fmtOrder(o, c))
		if e, _ := strategy.AsExhauster(s); e.Exhausted() {
			return out
		}
	}
	t.Fatalf("%s not exhausted after %d iterations: %v", s.Name(), limit, out)
	return nil
}

func TestDFSEnumeratesAllSchedules(t *testing.T) {
	p := prog{{w(1), w(1)}, {w(1), w(1)}}
	got := explore(t, strategy.NewDFS(), p, 100)
	want := []string{"0011", "0101", "0110", "1100", "1010", "1001"}
	slices.Sort(want)
	sorted := slices.Sorted(slices.Values(got))
	if !slices.Equal(sorted, want) {
		t.Errorf("schedules %v, want each of %v once", got, want)
	}
	if got[0] != "0011" {
		t.Errorf("first schedule %s, want the non-preemptive 0011", got[0])
	}
}

func TestDFSExploresChoices(t *testing.T) {
	p := prog{{tOp{choose: 3}}, {w(1)}}
	got := explore(t, strategy.NewDFS(), p, 100)
	if len(got) != 6 || len(distinct(got)) != 6 {
		t.Errorf("schedules %v, want 2 orders × 3 values", got)
	}
}

func TestDFSPreemptionBound(t *testing.T) {
	p := prog{{w(1), w(1)}, {w(1), w(1)}}
	for bound, want := range map[int][]string{
		0: {"0011", "1100"},
		1: {"0011", "0110", "1001", "1100"},
		2: {"0011", "0101", "0110", "1001", "1010", "1100"},
	} {
		s := strategy.NewBoundedDFS(bound)
		if s.Name() != fmt.Sprintf("dfs:%d", bound) {
			t.Errorf("Name = %q", s.Name())
		}
		got := slices.Sorted(slices.Values(explore(t, s, p, 100)))
		if !slices.Equal(got, want) {
			t.Errorf("dfs:%d explored %v, want %v", bound, got, want)
		}
	}
}

func TestDFSCountsInterleavings(t *testing.T) {
	// 3 tasks × 2 ops: 6!/(2!·2!·2!) = 90 schedules.
	p := prog{ops(2, w(1)), ops(2, w(2)), ops(2, r(1))}
	got := explore(t, strategy.NewDFS(), p, 1000)
	if len(got) != 90 || len(distinct(got)) != 90 {
		t.Errorf("%d schedules (%d distinct), want 90", len(got), len(distinct(got)))
	}
}

func TestDFSDetectsNondeterminism(t *testing.T) {
	s := strategy.NewDFS()
	run(s, prog{{w(1)}, {w(1)}}, 0)
	if _, _, ok := run(s, prog{{w(1)}, {w(1)}, {w(1)}}, 0); ok {
		t.Fatal("a replay with a different enabled set went on")
	}
	if d := s.Divergence(); !strings.Contains(d, "not deterministic") {
		t.Errorf("Divergence = %q", d)
	}
}

func distinct(s []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return m
}
