package trace_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

var rewriteGolden = flag.Bool("rewrite", false, "rewrite testdata/render.golden from the current output")

// renderOddTrace has what could break a rendering: names and messages with tabs,
// newlines and wide runes, a long message, a send to nobody, timed-out waits.
func renderOddTrace() *trace.Trace {
	return &trace.Trace{
		Tasks: []trace.Task{
			{ID: 0, Parent: -1, Name: "main"},
			{ID: 1, Parent: 0, Name: "tab\tname"},
			{ID: 2, Parent: 0}, // no name: renders as t2
		},
		Events: []trace.Event{
			{Task: -1, Obj: -1, Kind: trace.KindClock, Val: 999_999}, // below a millisecond
			{Task: 0, Obj: 1, Kind: trace.KindSend, Val: 0, Loc: 1},
			{Task: 1, Obj: 0, Kind: trace.KindRecv, Val: 0, Loc: 2},
			{Task: 1, Obj: -1, Kind: trace.KindSend, Val: 1, Flag: trace.FlagDropped},
			{Task: -1, Obj: -1, Kind: trace.KindClock, Val: 61_234_567_890},
			{Task: 2, Obj: -1, Kind: trace.KindSleep, Flag: trace.FlagTimeout, Loc: 3},
			{Task: 2, Obj: 0, Kind: trace.KindWatch, Loc: 9}, // location unknown
			{Task: 2, Obj: -1, Kind: trace.KindRecv, Val: 7}, // message without content
		},
		Msgs:  []any{struct{ Text string }{"two\nlines"}, strings.Repeat("ж", 100)},
		Where: map[uint64]string{1: "main.go:1", 2: "sp ace.go:2", 3: "sleep.go:3"},
	}
}

// TestRender compares renderings of whole traces and of windows with
// testdata/render.golden; go test -run TestRender -rewrite updates the file.
func TestRender(t *testing.T) {
	storage := mustDecode(t, readTestdata(t, "testdata/storage.trace"))
	faults := mustDecode(t, readTestdata(t, "testdata/faults.trace"))
	var got bytes.Buffer
	for _, tc := range []struct {
		name     string
		tr       *trace.Trace
		from, to int
	}{
		{"storage", storage, 0, -1},
		{"storage tail 3", storage, trace.Tail(storage, 3), -1},
		{"storage window", storage, 8, 13},
		{"storage clamped", storage, -5, 1000},
		{"storage empty window", storage, 10, 4},
		{"odd", renderOddTrace(), 0, -1},
		{"faults", faults, 0, -1},
		{"faults window", faults, 13, 16}, // a decision whose send is past the window
	} {
		fmt.Fprintf(&got, "== %s [%d, %d)\n", tc.name, tc.from, tc.to)
		if err := trace.Render(&got, tc.tr, tc.from, tc.to); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
	const golden = "testdata/render.golden"
	if *rewriteGolden {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := readTestdata(t, golden); got.String() != want {
		t.Errorf("Render output differs from %s (go test -run TestRender -rewrite to update):\n%s", golden, got.String())
	}
}

func TestRenderWriteError(t *testing.T) {
	if err := trace.Render(fmtFailWriter{}, mustDecode(t, formatExample), 0, -1); err != errFmtWrite {
		t.Errorf("Render error = %v, want %v", err, errFmtWrite)
	}
}

func TestTail(t *testing.T) {
	// Events: step, clock, step, step, clock, step (indices 0..5).
	tr := &trace.Trace{Events: []trace.Event{
		{Kind: trace.KindStart}, {Kind: trace.KindClock}, {Kind: trace.KindYield},
		{Kind: trace.KindYield}, {Kind: trace.KindClock}, {Kind: trace.KindExit},
	}}
	for _, tc := range []struct{ n, want int }{
		{-1, 6}, {0, 6}, {1, 5}, {2, 3}, {3, 2}, {4, 0}, {5, 0}, {100, 0},
	} {
		if got := trace.Tail(tr, tc.n); got != tc.want {
			t.Errorf("Tail(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	if got := trace.Tail(&trace.Trace{}, 3); got != 0 {
		t.Errorf("Tail of an empty trace = %d, want 0", got)
	}
}
