package micro_test

import (
	"math"
	"testing"

	"github.com/morpheus-go/morpheus/bench/internal/micro"
)

// prog builds a program from per-thread accesses like "0w", "1r".
func prog(t *testing.T, threads ...[]string) *micro.Program {
	t.Helper()
	var evs []micro.Event
	for th, accs := range threads {
		for _, a := range accs {
			evs = append(evs, micro.Event{Thread: th, Obj: int(a[0] - '0'), Read: a[1] == 'r', After: -1})
		}
	}
	p, err := micro.NewProgram("test", evs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func analyze(t *testing.T, p *micro.Program) *micro.Space {
	t.Helper()
	s, err := micro.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAnalyzeKnownCounts(t *testing.T) {
	s := func(a ...string) []string { return a }
	tests := []struct {
		name              string
		p                 *micro.Program
		pos, depth, confl int
		schedules         int64
	}{
		{"two writes of one object", prog(t, s("0w"), s("0w")), 2, 0, 1, 2},
		{"two writes of two objects", prog(t, s("0w"), s("1w")), 1, 0, 0, 2},
		{"two reads", prog(t, s("0r"), s("0r")), 1, 0, 0, 2},
		{"read and write", prog(t, s("0r"), s("0w")), 2, 0, 1, 2},
		// All pairs dependent: every one of the C(6,3) interleavings differs;
		// a0 b0 a1 b1 a2 b2 preempts 4 times and has 5 direct conflicts.
		{"2×3 on one object", prog(t, s("0w", "0w", "0w"), s("0w", "0w", "0w")), 20, 4, 5, 20},
		// a0 b1 on object 0, a1 b0 on object 1: b1 < a0 and a1 < b0 is
		// cyclic. Each schedule has one direct conflict: the first of the
		// pair that runs while the other is next.
		{"crossed", prog(t, s("0w", "1w"), s("1w", "0w")), 3, 1, 1, 6},
		// 3 threads, one write each: 3! orders; 2 + 1 direct conflicts.
		{"three writers", prog(t, s("0w"), s("0w"), s("0w")), 6, 0, 3, 6},
		// Independent threads: a single partial order.
		{"disjoint", prog(t, s("0w", "0r"), s("1w", "1w"), s("2r")), 1, 0, 0, 30},
	}
	for _, tc := range tests {
		sp := analyze(t, tc.p)
		if sp.POs() != tc.pos || sp.MaxDepth != tc.depth || sp.MaxConflicts != tc.confl || sp.Schedules != tc.schedules {
			t.Errorf("%s: %d POs, depth %d, conflicts %d, %d schedules; want %d, %d, %d, %d",
				tc.name, sp.POs(), sp.MaxDepth, sp.MaxConflicts, sp.Schedules, tc.pos, tc.depth, tc.confl, tc.schedules)
		}
		sum := 0.0
		for _, p := range sp.RW {
			sum += p
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: random walk probabilities sum to %v", tc.name, sum)
		}
	}
	// Two writers: random walk picks each order with probability 1/2.
	if c := analyze(t, prog(t, s("0w"), s("0w"))).RWCoverage(); c != 0.5 {
		t.Errorf("RWCoverage = %v, want 0.5", c)
	}
}

// TestAnalyzeMatchesEnumeration checks the dynamic program against the
// definition (every schedule enumerated) on random programs.
func TestAnalyzeMatchesEnumeration(t *testing.T) {
	configs := []micro.Config{
		{Name: "3x3", Threads: 3, PerThread: 3, Writes: []int{3, 3, 3}},
		{Name: "3x3r", Threads: 3, PerThread: 3, Writes: []int{2, 1, 1}, Reads: []int{2, 2, 1}},
		{Name: "4x3", Threads: 4, PerThread: 3, Writes: []int{2, 2, 4, 4}},
		{Name: "4x3r", Threads: 4, PerThread: 3, Writes: []int{1, 1, 2, 2}, Reads: []int{1, 1, 2, 2}},
	}
	for _, c := range configs {
		for seed := range uint64(3) {
			p, err := micro.Generate(c, seed)
			if err != nil {
				t.Fatal(err)
			}
			got := analyze(t, p)
			want, err := micro.AnalyzeByEnumeration(p)
			if err != nil {
				t.Fatal(err)
			}
			compareSpaces(t, c.Name+" "+p.String(), got, want)
		}
	}
}

func compareSpaces(t *testing.T, name string, got, want *micro.Space) {
	t.Helper()
	if got.POs() != want.POs() || got.Schedules != want.Schedules || got.MaxDepth != want.MaxDepth || got.MaxConflicts != want.MaxConflicts {
		t.Errorf("%s: POs %d/%d schedules %d/%d depth %d/%d conflicts %d/%d (dp/enumeration)", name,
			got.POs(), want.POs(), got.Schedules, want.Schedules, got.MaxDepth, want.MaxDepth, got.MaxConflicts, want.MaxConflicts)
		return
	}
	for i, m := range want.Masks {
		j, ok := got.Lookup(m)
		if !ok {
			t.Errorf("%s: partial order %x missing", name, m)
			continue
		}
		if math.Abs(got.RW[j]-want.RW[i]) > 1e-12 || got.Depth[j] != want.Depth[i] {
			t.Errorf("%s: partial order %x: rw %g/%g depth %d/%d", name, m, got.RW[j], want.RW[i], got.Depth[j], want.Depth[i])
		}
	}
}
