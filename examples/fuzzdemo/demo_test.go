package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/server"
	"github.com/morpheus-go/morpheus/tracepoint"
)

// The test binary doubles as fuzzdemo (and its workers) when FUZZDEMO_MAIN
// is set.
func TestMain(m *testing.M) {
	if os.Getenv("FUZZDEMO_MAIN") != "" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// system runs fuzzdemo with args under an ordering server configured by cfg
// (none if cfg is nil) and returns its exit code, stderr and the server's
// result.
func system(t *testing.T, cfg *server.Config, args ...string) (int, string, server.Result) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FUZZDEMO_MAIN=1", "GORACE=atexit_sleep_ms=0", tracepoint.EnvSocket+"=", tracepoint.EnvProcess+"=")
	var srv *server.Server
	if cfg != nil {
		var err error
		if srv, err = server.Start(filepath.Join(t.TempDir(), "s"), *cfg); err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, tracepoint.EnvSocket+"="+srv.Socket())
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var res server.Result
	if srv != nil {
		res = srv.Stop()
	}
	return code, stderr.String(), res
}

// natural runs the system as system does, without constraints (cfg, if not
// nil, has none). The demo's bug is a race that timing all but hides (a
// worker's configuration loads long before its start), but a machine slow
// enough can show it in a natural run; such a run is tried again, and only
// the bug's own failure is.
func natural(t *testing.T, cfg *server.Config, args ...string) (int, string, server.Result) {
	t.Helper()
	for try := 1; ; try++ {
		code, stderr, res := system(t, cfg, args...)
		if code != 1 || !strings.Contains(stderr, "wrong result") || try == 3 {
			return code, stderr, res
		}
		t.Logf("natural run %d showed the race by timing: %s", try, stderr)
	}
}

func TestRunsWithoutServer(t *testing.T) {
	if code, stderr, _ := natural(t, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestNaturalRunTrace(t *testing.T) {
	code, stderr, res := natural(t, &server.Config{})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := append([]string(nil), res.Trace...)
	sort.Strings(got)
	want := []string{"coord:done#0", "coord:listen#0", "coord:start#0"}
	for _, w := range []string{"w1", "w2", "w3"} {
		n := w[1:]
		want = append(want, "coord:register{worker="+n+"}#0", "coord:result{worker="+n+"}#0",
			w+":config-loaded#0", w+":register#0", w+":result#0", w+":start#0")
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("events:\n got %v\nwant %v", got, want)
	}
	if res.Processes < 4 {
		t.Fatalf("%d processes said hello", res.Processes)
	}
}

// TestTranspositionShowsBug forces the one order that breaks the system. The
// order is feasible: the time-out only has to exceed the start-up of the
// system's 4 processes, however slow the machine.
func TestTranspositionShowsBug(t *testing.T) {
	cfg := &server.Config{Constraints: []server.Constraint{{First: "w2:start#0", Then: "w2:config-loaded#0"}}, Timeout: 2 * time.Minute}
	code, stderr, res := system(t, cfg)
	if code != 1 || !strings.Contains(stderr, "wrong result: worker 2 computed 0 for job 12, expected 84") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if res.Outcomes[0] == server.TimedOut {
		t.Fatal("the transposition timed out")
	}
}

// TestFixedSurvivesTransposition: in the fixed system the same order is
// infeasible; the server's time-out resolves it and the run passes. (The
// time-out is short since it always expires: a slow machine changes nothing.)
func TestFixedSurvivesTransposition(t *testing.T) {
	cfg := &server.Config{Constraints: []server.Constraint{{First: "w2:start#0", Then: "w2:config-loaded#0"}}, Timeout: 100 * time.Millisecond}
	code, stderr, res := system(t, cfg, "-fixed")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if res.Outcomes[0] != server.TimedOut {
		t.Fatalf("outcome %v, want timed out", res.Outcomes[0])
	}
}

func TestPair(t *testing.T) {
	code, stderr, res := system(t, &server.Config{}, "pair")
	if code != 0 || len(res.Trace) != 4 || res.Processes != 2 {
		t.Fatalf("exit %d (%s), trace %v", code, stderr, res.Trace)
	}
}

func TestBadRole(t *testing.T) {
	if code, stderr, _ := system(t, nil, "frob"); code != 2 || !strings.Contains(stderr, `unknown role "frob"`) {
		t.Fatalf("exit %d, %q", code, stderr)
	}
}
