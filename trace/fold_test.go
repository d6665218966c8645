package trace_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// TestRenderFolded compares folded renderings of a liveness failure (a
// server crashed by Chaos, its client retrying until the clock limit) with
// testdata/fold.golden, with the highlights a report leads with; go test
// -run TestRenderFolded -rewrite updates the file.
func TestRenderFolded(t *testing.T) {
	live := mustDecode(t, readTestdata(t, "testdata/liveness.trace"))
	storage := mustDecode(t, readTestdata(t, "testdata/storage.trace"))
	var got bytes.Buffer
	for _, tc := range []struct {
		name     string
		tr       *trace.Trace
		from, to int
	}{
		{"liveness", live, 0, -1},
		{"liveness tail 5 lines", live, trace.TailFolded(live, 5), -1},
		{"liveness window", live, 10, 14},
		{"storage (nothing repeats)", storage, 0, -1},
	} {
		fmt.Fprintf(&got, "== %s [%d, %d)\n", tc.name, tc.from, tc.to)
		if err := trace.RenderFolded(&got, tc.tr, tc.from, tc.to); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
	for _, tr := range []*trace.Trace{live, storage} {
		fmt.Fprintf(&got, "== highlights of %s\n", tr.Header.Test)
		for _, h := range trace.Highlights(tr) {
			fmt.Fprintf(&got, "step %d (event %d) %s: %s\n", h.Step, h.Event, h.What, h.Text)
		}
	}
	const golden = "testdata/fold.golden"
	if *rewriteGolden {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := readTestdata(t, golden); got.String() != want {
		t.Errorf("RenderFolded output differs from %s (go test -run TestRenderFolded -rewrite to update):\n%s", golden, got.String())
	}
}

// steps builds a trace of one task's steps, one per letter of s: a yield
// at location = the letter.
func steps(s string) *trace.Trace {
	tr := &trace.Trace{Tasks: []trace.Task{{ID: 0, Parent: -1, Name: "main"}}}
	for _, c := range s {
		tr.Events = append(tr.Events, trace.Event{Obj: -1, Kind: trace.KindYield, Loc: uint64(c)})
	}
	return tr
}

func TestFolds(t *testing.T) {
	check := func(in string, from, to int, want string) {
		t.Helper()
		var b strings.Builder
		for i, f := range trace.Folds(steps(in), from, to) {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "[%d,%d)×%d/%d@%d", f.Start, f.End, f.Count, f.Period, f.FirstStep)
		}
		if b.String() != want {
			t.Errorf("Folds(%q, %d, %d) = %s, want %s", in, from, to, b.String(), want)
		}
	}
	check("", 0, -1, "")
	check("abc", 0, -1, "")
	check("aaa", 0, -1, "")                                // fewer than minFoldCount cycles
	check("aaaa", 0, -1, "[0,4)×4/1@1")                    // a run of one step
	check("xababababy", 0, -1, "[1,9)×4/2@2")              // a cycle of two
	check("xabababy", 0, -1, "")                           // three cycles only
	check("abcabcabcabcab", 0, -1, "[0,12)×4/3@1")         // a partial cycle at the end stays out
	check("aaaaxbbbbb", 0, -1, "[0,4)×4/1@1 [5,10)×5/1@6") // two runs
	check("xababababy", 3, -1, "")                         // the window cuts the run to 3 cycles
	check("xabababababy", 3, 11, "[3,11)×4/2@4")           // steps numbered over the whole trace
}

func TestTailFolded(t *testing.T) {
	tr := steps("xyabababababz") // x y, then ab × 5 folded, then z: 4 lines
	for _, tc := range []struct{ n, want int }{
		{0, 13}, {1, 12}, {2, 2}, {3, 1}, {4, 0}, {10, 0},
	} {
		if got := trace.TailFolded(tr, tc.n); got != tc.want {
			t.Errorf("TailFolded(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
