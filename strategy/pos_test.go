package strategy_test

import (
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// waits reports whether task 1's first op ran after at least m ops of task 0.
func waits(m int) func([]int32) bool {
	return func(o []int32) bool { return firstAt(o, 1) >= m }
}

// TestPOSKeepsPriorityWhileWaiting checks the defining property of basic POS:
// an op keeps its priority while it waits, so for task 1's op to wait for m
// ops of task 0 its priority must be the lowest of m+1: probability 1/(m+1),
// where random walk has 1/2^m.
func TestPOSKeepsPriorityWhileWaiting(t *testing.T) {
	const n, m = 20000, 3
	for _, res := range []uint32{1, 2} { // conflicting or not: POS does not care
		p := prog{ops(6, w(1)), {w(res)}}
		near(t, "pos wait", freq(strategy.NewPOS(), p, n, waits(m)), 1.0/(m+1), n)
	}
	p := prog{ops(6, w(1)), {w(1)}}
	near(t, "random wait", freq(strategy.NewRandom(), p, n, waits(m)), 1.0/(1<<m), n)
}

// TestPOSStarReassigns checks priority reassignment: an op that conflicts
// with the op that ran draws a fresh priority, so waiting m steps behind
// conflicting ops has probability 1/2^m, while an op that does not conflict
// keeps its priority (1/(m+1), as in POS). Reads of one resource do not
// conflict, except for the reads-blind variant.
func TestPOSStarReassigns(t *testing.T) {
	const n, m = 20000, 3
	tests := []struct {
		name  string
		s     strategy.Strategy
		other tOp // task 1's op, against task 0's ops
		t0    tOp
		want  float64
	}{
		{"pos* write/write", strategy.NewPOSStar(), w(1), w(1), 1.0 / (1 << m)},
		{"pos* write/read", strategy.NewPOSStar(), r(1), w(1), 1.0 / (1 << m)},
		{"pos* other resource", strategy.NewPOSStar(), w(2), w(1), 1.0 / (m + 1)},
		{"pos* read/read", strategy.NewPOSStar(), r(1), r(1), 1.0 / (m + 1)},
		{"pos*-noreads read/read", strategy.NewPOSStarNoReads(), r(1), r(1), 1.0 / (1 << m)},
		{"pos* resource 0", strategy.NewPOSStar(), tOp{}, tOp{}, 1.0 / (m + 1)},
	}
	for _, tc := range tests {
		p := prog{ops(6, tc.t0), {tc.other}}
		near(t, tc.name, freq(tc.s, p, n, waits(m)), tc.want, n)
	}
}

func TestPOSNames(t *testing.T) {
	for want, s := range map[string]strategy.Strategy{
		"pos": strategy.NewPOS(), "pos*": strategy.NewPOSStar(), "pos*-noreads": strategy.NewPOSStarNoReads(),
		"rapos": strategy.NewRAPOS(),
	} {
		if s.Name() != want {
			t.Errorf("Name = %q, want %q", s.Name(), want)
		}
	}
}

// TestNextDoesNotAllocate checks that steady-state decisions reuse memory.
func TestNextDoesNotAllocate(t *testing.T) {
	enabled := []strategy.Op{{Task: 0, Res: 1}, {Task: 1, Res: 1, Read: true}, {Task: 2, Res: 2}, {Task: 3}}
	for _, name := range []string{"random", "pct:3", "pos", "pos*", "rapos", "pos*+ca"} {
		s, err := strategy.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		s.Begin(1)
		s.Next(enabled) // let per-task arrays grow
		s.Begin(2)
		allocs := testing.AllocsPerRun(100, func() { s.Next(enabled) })
		if allocs != 0 {
			t.Errorf("%s: Next allocates %.1f times per call", name, allocs)
		}
	}
}
