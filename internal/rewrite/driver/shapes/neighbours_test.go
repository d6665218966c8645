package shapes_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// The tests below share one run of testdata/neighbours (its shapes of tests
// that use their neighbours: a child process, a leak checker that lists
// goroutines, an assertion package that takes t as an interface).
var (
	neighboursOnce sync.Once
	neighbours     *driver.Summary
	neighboursTmp  string // the children's TMPDIR
)

func runNeighbours(t *testing.T) *driver.Summary {
	t.Helper()
	cfg := testdataConfig(t, "neighbours", 2, 1)
	neighboursOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "neighbours")
		if err != nil {
			t.Fatal(err)
		}
		neighboursTmp = tmp
		cfg.Cache = filepath.Join(tmp, "cache")
		cfg.Env = append(cfg.Env, "TMPDIR="+tmp)
		neighbours = explore(t, cfg)
	})
	if neighbours == nil {
		t.Fatal("the run of testdata/neighbours failed")
	}
	return neighbours
}

func TestMain(m *testing.M) {
	proctest.Main() // the explorations wait for go build and test processes
	if !testing.Short() {
		proctest.StartRuntime() // compiled once for their builds (testdataConfig waits for it)
	}
	code := m.Run()
	if neighboursTmp != "" {
		os.RemoveAll(neighboursTmp)
	}
	os.Exit(code)
}

// A test that re-runs its own binary to see it crash passes as under go
// test: the child does not inherit the driver's settings, so it neither
// reports its crash as the parent's failure nor saves its traces where
// the parent's go; it runs with rt's defaults, its traces in its own
// temporary directory.
func TestChildProcess(t *testing.T) {
	t.Parallel()
	sum := runNeighbours(t)
	ts := find(sum, "TestCrasher")
	if ts == nil || ts.Failure != "" {
		t.Fatalf("TestCrasher: %+v", ts)
	}
	traces := filepath.Join(filepath.Dir(filepath.Dir(sum.Packages[0].Binary)), "traces")
	entries, _ := os.ReadDir(traces)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "TestCrasher") {
			t.Errorf("a child saved %s with the parent's traces", e.Name())
		}
	}
	if saved, _ := os.ReadDir(filepath.Join(neighboursTmp, "morpheus-rewrite", "traces")); len(saved) == 0 {
		t.Errorf("the children saved no trace of their crash in their own temporary directory")
	}
}

// A leak checker that lists the process's goroutines (runtime.Stack with
// all, as goleak does) sees the test's goroutines and no goroutine of
// morpheus's: a test whose goroutines end passes, one that leaks a
// goroutine fails with the checker's message, which names it as go test
// would. A goroutine the check was told to ignore (goleak's
// IgnoreTopFunction) is not reported by morpheus's leak check either.
// Checked once all tests ran (goleak.VerifyTestMain's way), the process
// passes.
func TestLeakChecker(t *testing.T) {
	t.Parallel()
	sum := runNeighbours(t)
	if ts := find(sum, "TestNoLeak"); ts == nil || ts.Failure != "" {
		t.Errorf("TestNoLeak: %+v", ts)
	}
	ts := find(sum, "TestLeakFound")
	if ts == nil || ts.Kind != "assertion" || !strings.Contains(ts.Message, "found unexpected goroutines") {
		t.Fatalf("TestLeakFound: %+v", ts)
	}
	if strings.Count(ts.Message, "\ngoroutine ") != 1 || !strings.Contains(ts.Message, "in state chan receive, with example.com/neighbours.TestLeakFound.") {
		t.Errorf("the checker should see the leaked goroutine alone, blocked in its receive:\n%s", ts.Message)
	}

	// A subtest's cleanups run when it ends, before its parent's check.
	if ts := find(sum, "TestSubtestCleanup"); ts == nil || ts.Failure != "" {
		t.Errorf("TestSubtestCleanup: %+v", ts)
	}
	// The goroutines the check let outlive the test are the test's word;
	// one started after the check is a leak.
	if ts := find(sum, "TestLeakIgnored"); ts == nil || ts.Failure != "" {
		t.Errorf("TestLeakIgnored: %+v", ts)
	}
	if ts := find(sum, "TestLeakAfterCheck"); ts == nil || ts.Kind != "leak" || !strings.Contains(ts.Failure, "1 goroutine leaked") ||
		!strings.Contains(ts.Failure, "started at leak_test.go:54") {
		t.Errorf("TestLeakAfterCheck: %+v", ts)
	}

	cfg := testdataConfig(t, "neighbours", 2, 1)
	cfg.Patterns = []string{"./testmain"}
	if ts := find(explore(t, cfg), "TestWorkers"); ts == nil || ts.Failure != "" {
		t.Errorf("TestWorkers: %+v", ts)
	}
}

// An assertion package that takes t as an interface of its own and marks
// its functions helpers through it (testify's assert and require) fails a
// schedule as t.Errorf does: an assertion failure at the test's line, with
// the message in the record. A failure morpheus does not see (through an
// interface its stand-in for t cannot be) keeps the test's own output,
// and only it, beside the trace.
func TestAssertionPackage(t *testing.T) {
	t.Parallel()
	sum := runNeighbours(t)
	if ts := find(sum, "TestAssertPasses"); ts == nil || ts.Failure != "" {
		t.Errorf("TestAssertPasses: %+v", ts)
	}
	ts := find(sum, "TestAssertFails")
	if ts == nil || ts.Kind != "assertion" || ts.Location != "assert_test.go:36" || !strings.Contains(ts.Message, "expected: 2\nactual  : 1") {
		t.Fatalf("TestAssertFails: %+v", ts)
	}
	if strings.Contains(ts.Failure, "not reached") || ts.Log != "" {
		t.Errorf("MustEqual should end the schedule, with its message in the report:\n%s", ts.Failure)
	}

	un := find(sum, "TestUnseenFailure")
	if un == nil || un.Log == "" {
		t.Fatalf("TestUnseenFailure: %+v", un)
	}
	data, err := os.ReadFile(un.Log)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	if !strings.Contains(log, "output of TestUnseenFailure") || !strings.Contains(log, "check failed") || strings.Contains(log, "TestAssertFails") {
		t.Errorf("the saved output should be TestUnseenFailure's alone:\n%s", log)
	}
}

// A leak report names the subtest that started the leaked goroutine.
func TestLeakSubtest(t *testing.T) {
	t.Parallel()
	ts := find(runNeighbours(t), "TestSubtests")
	if ts == nil || ts.Kind != "leak" || !strings.Contains(ts.Failure, "started at subtest_test.go:15 in subtest TestSubtests/leaky\n") {
		t.Fatalf("TestSubtests: %+v", ts)
	}
}

// A saved trace whose replay blocks outside control (where it recorded an
// assertion) is caught by the watchdog and listed as stale: the corpus
// replay that every run begins with neither hangs nor stops the
// exploration, which reports the blocking at the line where it blocks.
func TestCorpusReplayWatched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../testdata/neighbours")); err != nil {
		t.Fatal(err)
	}
	cfg := testdataConfig(t, "neighbours", 2, 1)
	cfg.Dir, cfg.Run, cfg.Corpus = dir, "^TestReplayBlocks$", true
	if ts := find(explore(t, cfg), "TestReplayBlocks"); ts == nil || ts.Kind != "assertion" {
		t.Fatalf("TestReplayBlocks: %+v", ts)
	}
	if saved, _ := os.ReadDir(filepath.Join(dir, "testdata", "morpheus", "TestReplayBlocks")); len(saved) == 0 {
		t.Fatal("no trace saved in the corpus")
	}
	cfg.Env = append(cfg.Env, "NEIGHBOURS_BLOCK=1")
	cfg.Watchdog = time.Second
	type result struct {
		sum *driver.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := driver.Run(context.Background(), cfg)
		done <- result{sum, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(5 * time.Minute): // far beyond the build and the watchdog's second
		t.Fatal("the corpus replay hangs")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	ts := find(r.sum, "TestReplayBlocks")
	if ts == nil || ts.Kind != "uncontrolled-blocking" || ts.Location != "replay_test.go:22" || strings.Contains(ts.Failure, "still fails") ||
		len(ts.Stale) != 1 || !strings.Contains(ts.Stale[0], ": blocked outside control during the replay (") {
		t.Fatalf("TestReplayBlocks: %+v", ts)
	}
}

// What a test observes of the runtime: a channel's length read by
// reflection (testify's assert.Len) is the controlled channel's, under
// control, and reflect's channel operations are the channel's ops; a test that counts allocations (testing.AllocsPerRun,
// testing.Benchmark's AllocsPerOp, runtime.ReadMemStats in its own file) runs once as go test runs it, told
// so, since under control the counts would include morpheus's own; one that
// reaches a library's ReadMemStats (a collector) is explored.
func TestRuntimeObserved(t *testing.T) {
	t.Parallel()
	sum := runNeighbours(t)
	if ts := find(sum, "TestChanLen"); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 2 {
		t.Errorf("TestChanLen: %+v", ts)
	}
	if ts := find(sum, "TestReflectChan"); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 2 {
		t.Errorf("TestReflectChan: %+v", ts)
	}
	ts := find(sum, "TestAllocs")
	why := "testing.AllocsPerRun (counts allocations, morpheus's own too under control) at observe_test.go:44"
	if ts == nil || ts.Failure != "" || ts.Real != why || ts.Schedules != 1 {
		t.Errorf("TestAllocs once as go test runs it (%s): %+v", why, ts)
	}
	ts = find(sum, "TestBenchmarkAllocs")
	why = "testing.Benchmark (counts allocations, morpheus's own too under control) at benchallocs_test.go:14"
	if ts == nil || ts.Failure != "" || ts.Real != why || ts.Schedules != 1 {
		t.Errorf("TestBenchmarkAllocs once as go test runs it (%s): %+v", why, ts)
	}
	// A library's runtime.ReadMemStats (a collector of statistics) is no
	// allocation count: the test that reaches it is explored.
	if ts := find(sum, "TestMemStats"); ts == nil || ts.Failure != "" || ts.Real != "" || ts.Schedules != 2 {
		t.Errorf("TestMemStats under control: %+v", ts)
	}
}
