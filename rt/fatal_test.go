package rt_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// checkSame stands for a test helper that fails the test with t.Fatalf, like
// hashicorp/raft's cluster.EnsureSame.
func checkSame(t *testing.T, a, b int) {
	t.Helper()
	if a != b {
		t.Fatalf("mismatch: %d %d", a, b) // the failure's location: keep on line 20
	}
}

// A test that fails by t.Fatalf under rt.Test (the Fatalf Goexits the main
// task) is reported as an assertion failure at the Fatalf's line, not at the
// last op, which the deferred cleanups that ran during the Goexit made
// elsewhere (raft's cluster.Close ops at testing.go:309 hid EnsureSame's
// Fatalf at testing.go:630). Run in a child process: the test must fail.
func TestFatalLocated(t *testing.T) {
	if os.Getenv("RT_FATAL_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			defer rt.Sleep(time.Millisecond) // ops after the Fatalf, as cleanups do
			rt.Go(func() {})
			checkSame(t, 0, 100)
		})
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	r, log := child(t, "TestFatalLocated")
	if r.Kind != "assertion" || r.Location != "fatal_test.go:20" ||
		!strings.Contains(r.Failure, "t.FailNow (t.Fatal, t.Fatalf) in task main, called by github.com/morpheus-go/morpheus/rt_test.checkSame") {
		t.Fatalf("kind %q at %q:\n%s", r.Kind, r.Location, r.Failure)
	}
	if !strings.Contains(log, "fatal_test.go:34: mismatch: 0 100") { // t.Helper: the log names the caller
		t.Fatalf("the Fatalf's message is not in the log:\n%s", log)
	}
	// Its replay reports the same failure (the Goexit used to end the
	// replaying goroutine with the report unwritten).
	rep, log := child(t, "TestFatalLocated", rt.EnvReplay+"="+r.Trace)
	if rep.Kind != r.Kind || rep.Location != r.Location || !strings.Contains(rep.Failure, "strategy replay") {
		t.Fatalf("replay: kind %q at %q:\n%s\n%s", rep.Kind, rep.Location, rep.Failure, log)
	}
}

// child runs test's child (in a process of its own), which must fail, and
// returns what rt.Test reported of it and its output.
func child(t *testing.T, test string, env ...string) (rt.Result, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), "RT_FATAL_CHILD=1", rt.EnvOut+"="+out, rt.EnvSchedules+"=3",
		rt.EnvTraces+"="+t.TempDir()), env...)
	log, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passed:\n%s", log)
	}
	var r rt.Result
	data, err := os.ReadFile(out)
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	return r, string(log)
}

// warm stands for a process-wide cache that code under test fills on first
// use (go-msgpack's type information in hashicorp/raft).
var warm bool

// A trace recorded on a warm cache (a later schedule, or shrinking's
// candidates, after the first schedule filled it) diverges when replayed in
// a fresh process, where the first use fills the cache with ops the trace
// does not have; Test then warms the cache with one schedule and replays
// again.
func TestReplayWarmsUp(t *testing.T) {
	if os.Getenv("RT_FATAL_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			if !warm {
				rt.Sleep(time.Millisecond) // the cold path's ops
				warm = true
				return
			}
			rt.Go(func() {})
			t.Errorf("fails on a warm cache")
		})
		return
	}
	if testing.Short() {
		t.Skip("runs child processes")
	}
	r, log := child(t, "TestReplayWarmsUp")
	if r.Kind != "assertion" || r.Trace == "" {
		t.Fatalf("kind %q, trace %q:\n%s", r.Kind, r.Trace, log)
	}
	rep, log := child(t, "TestReplayWarmsUp", rt.EnvReplay+"="+r.Trace)
	if rep.Kind != "assertion" || !strings.Contains(log, "warming the process's caches") {
		t.Fatalf("replay: kind %q:\n%s\n%s", rep.Kind, rep.Failure, log)
	}
}
