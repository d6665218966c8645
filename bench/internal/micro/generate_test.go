package micro_test

import (
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/bench/internal/micro"
)

func TestGenerateFollowsConfig(t *testing.T) {
	for _, c := range []micro.Config{micro.Uniform, micro.Skewed, micro.UniformReads, micro.SkewedReads} {
		p, err := micro.Generate(c, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Events) != 16 || p.Threads != 4 {
			t.Fatalf("%s: %d events, %d threads", c.Name, len(p.Events), p.Threads)
		}
		writes, reads := make([]int, 4), make([]int, 4)
		for i, e := range p.Events {
			if e.Thread != i/4 || e.After != -1 {
				t.Fatalf("%s: event %d is %+v, want thread %d and no wait", c.Name, i, e, i/4)
			}
			if e.Read {
				reads[e.Obj]++
			} else {
				writes[e.Obj]++
			}
			if p.Index(e.Thread, i%4) != i {
				t.Fatalf("Index(%d, %d) != %d", e.Thread, i%4, i)
			}
		}
		wantReads := c.Reads
		if wantReads == nil {
			wantReads = []int{0, 0, 0, 0}
		}
		if !slices.Equal(writes, c.Writes) || !slices.Equal(reads, wantReads) {
			t.Errorf("%s: writes %v reads %v per object, want %v %v", c.Name, writes, reads, c.Writes, wantReads)
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := micro.Generate(micro.Skewed, 3)
	b, _ := micro.Generate(micro.Skewed, 3)
	if a.String() != b.String() {
		t.Fatalf("same seed, different programs:\n%s\n%s", a, b)
	}
	distinct := map[string]bool{}
	for seed := range uint64(20) {
		p, _ := micro.Generate(micro.Uniform, seed)
		distinct[p.String()] = true
	}
	if len(distinct) < 19 {
		t.Errorf("20 seeds gave only %d distinct programs", len(distinct))
	}
}

func TestSuite(t *testing.T) {
	for _, reads := range []bool{false, true} {
		ps, err := micro.Suite(reads, 1)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range ps {
			names = append(names, p.Name)
			hasRead := slices.ContainsFunc(p.Events, func(e micro.Event) bool { return e.Read })
			if hasRead != reads {
				t.Errorf("reads=%v: %s has reads: %v", reads, p.Name, hasRead)
			}
		}
		want := []string{"Uniform-1", "Uniform-2", "Uniform-3", "Uniform-4", "Uniform-5",
			"Skewed-1", "Skewed-2", "Skewed-3", "Skewed-4", "Skewed-5"}
		if !slices.Equal(names, want) {
			t.Errorf("names %v", names)
		}
	}
}

func TestNewProgramRejects(t *testing.T) {
	for name, evs := range map[string][]micro.Event{
		"empty":               nil,
		"starts at 1":         {{Thread: 1, After: -1}},
		"threads not grouped": {{Thread: 0, After: -1}, {Thread: 1, After: -1}, {Thread: 0, After: -1}},
		"waits on own thread": {{Thread: 0, After: -1}, {Thread: 0, After: 0}},
		"negative object":     {{Thread: 0, Obj: -1, After: -1}},
	} {
		if _, err := micro.NewProgram(name, evs); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
