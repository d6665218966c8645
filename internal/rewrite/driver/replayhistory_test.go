package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// The history's process runs the tests the trace's ran lines name and the
// trace's own, each once, by exact name.
func TestHistoryRun(t *testing.T) {
	h := &trace.Header{Test: "TestLate", Ran: []trace.Run{
		{Test: "TestA", Schedules: 3}, {Test: "TestA", Replay: "p"}, {Test: "TestB.x", Schedules: 1}, {Test: "TestLate", Schedules: 2},
	}}
	if got, want := historyRun(h), `^(TestLate|TestA|TestB\.x)$`; got != want {
		t.Errorf("historyRun = %s, want %s", got, want)
	}
}

// Only a trace that records a history is replayed again with it: not one
// written before ran lines, nor one that cannot be read.
func TestHistoryOf(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	head := "morpheus-trace 1\ntest TestLate\nseed 1\niteration 4\n"
	with := write("with", head+"ran TestA seed=2 schedules=5\ntask 0 parent=-1 key=0x1 name=\"main\"\ns 1 t0 start\nend\n")
	without := write("without", head+"task 0 parent=-1 key=0x1 name=\"main\"\ns 1 t0 start\nend\n")
	bad := write("bad", head+"ran TestA seed=x\n")
	if h := historyOf(with); h == nil || len(h.Ran) != 1 || h.Ran[0] != (trace.Run{Test: "TestA", Seed: 2, Schedules: 5}) {
		t.Errorf("historyOf(with) = %+v", h)
	}
	for _, p := range []string{without, bad, filepath.Join(dir, "none")} {
		if h := historyOf(p); h != nil {
			t.Errorf("historyOf(%s) = %+v, want nil", filepath.Base(p), h)
		}
	}
}

// The summary says where the replay alone left the trace, without the
// file's name and the advice.
func TestWhereDiverged(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"/m/testdata/morpheus/TestX/01: this trace was recorded on different code: at step 313 it expected main read at a.go:1, the run does main lock at b.go:2; delete it if the bug is fixed\n\tmore",
			"at step 313 it expected main read at a.go:1, the run does main lock at b.go:2"},
		{"the replay ran out of steps\nmore", "the replay ran out of steps"},
	} {
		if got := where(c.msg); got != c.want {
			t.Errorf("where(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
