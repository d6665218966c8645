package rt

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/corpus"
	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

// Environment variables that Test reads; the driver sets them.
const (
	EnvSchedules = "MORPHEUS_RT_SCHEDULES" // schedules per test (default 100; 0: unlimited; see budget.go)
	EnvSeed      = "MORPHEUS_RT_SEED"      // base seed (default: from the test's name)
	EnvStrategy  = "MORPHEUS_RT_STRATEGY"  // strategy (default morpheus's)
	EnvReplay    = "MORPHEUS_RT_REPLAY"    // a trace file to replay instead
	EnvTraces    = "MORPHEUS_RT_TRACES"    // where failing traces go without EnvCorpus, or when the package's testdata cannot be written (default $TMPDIR/morpheus-rewrite)
	EnvCorpus    = "MORPHEUS_RT_CORPUS"    // true: replay testdata/morpheus/<Test>/ first, save failing traces there (see corpus.go)
	EnvOut       = "MORPHEUS_RT_OUT"       // a file to append one JSON Result per test to
	EnvHint      = "MORPHEUS_RT_HINT"      // the replay command, with %s for the trace and the test
	EnvWatchdog  = "MORPHEUS_RT_WATCHDOG"  // the watchdog's time-out (default morpheus's)
	EnvMaxSteps  = "MORPHEUS_RT_MAXSTEPS"  // step limit per schedule (a step-limit failure at ten times it)
	EnvShrink    = "MORPHEUS_RT_SHRINK"    // candidate schedules shrinking may run (0: off; default morpheus's)
	// EnvAllowLeaks, set to true, lets goroutines still blocked after the
	// test's body returned go without a leak failure (morpheus.AllowLeaks).
	EnvAllowLeaks = "MORPHEUS_RT_ALLOWLEAKS"
	// EnvAllowRaces, set to true, turns the data-race check of plain
	// memory off (morpheus.AllowRaces): for tests that race on purpose.
	EnvAllowRaces = "MORPHEUS_RT_ALLOWRACES"
	// EnvEarlyTimers is how many times per schedule the nearest timer,
	// sleep or time-out may fire while goroutines can still run
	// (morpheus.EarlyTimers; default DefaultEarlyTimers).
	EnvEarlyTimers = "MORPHEUS_RT_EARLYTIMERS"
	// EnvEpoch is the instant, in RFC 3339, every schedule's clock starts
	// at (morpheus.Epoch; default 2000-01-01T00:00:00Z); the clock of
	// code outside control starts a minute before it (outside.go).
	EnvEpoch = "MORPHEUS_RT_EPOCH"
	// EnvCount, set to true, is counting mode, for benchmarks (bench sct
	// -plain): every schedule runs, even after one failed, and Result.Hits
	// counts the failing ones (explore.CountHits); shrinking is off. The
	// test still fails with the lowest failing schedule's report. A t.Fatal
	// (runtime.Goexit) ends the exploration: tests that count call t.Error.
	EnvCount = "MORPHEUS_RT_COUNT"
	// EnvCorpusList names a file that lists, a line each, the traces the
	// corpus replay may read (paths relative to the package): those saved
	// before the run, not those other processes of the run save meanwhile.
	EnvCorpusList = "MORPHEUS_RT_CORPUS_LIST"
	// EnvProgress is the progress file of the morpheus command's run (the
	// Checks' setting, MORPHEUS_PROGRESS): a rewritten test appends
	// heartbeat lines to it (explore.Heartbeat), which the command shows
	// once the test has run a while.
	EnvProgress = "MORPHEUS_PROGRESS"
	// EnvShownDir is the package's directory as the user names it where
	// morpheus test ran ("a/b", or absolute; empty: that directory): a
	// corpus entry's path in a report is shown under it, as the replay
	// command names it.
	EnvShownDir = "MORPHEUS_RT_SHOWN_DIR"
)

// DefaultEarlyTimers is how many times per schedule a rewritten test's
// nearest timer, sleep or time-out, if at most a millisecond ahead, may
// fire while goroutines can still run (morpheus.EarlyTimers). It is 0:
// EnvEarlyTimers (morpheus test -earlytimers N) asks for N in every
// schedule, -1 for the portfolio (half the schedules keep the clock standing
// while work is pending, a quarter fire early up to twice, a quarter up to
// 24 times), which finds the bugs that need a slow goroutine with no false
// alarm measured, but is not the default yet: a deadlock beside a ticker of
// a nanosecond (GoKer's etcd_7492) then runs to the step bound with a task
// per tick (BENCHMARKS.md).
const DefaultEarlyTimers = 0

// maxSteps is the step limit of a rewritten test's schedule (1,000,000),
// unless EnvMaxSteps sets another. Every shared memory access is a step, so
// it is ten times morpheus's default (core.DefaultMaxSteps, that of
// morpheus.MaxSteps); as there, the strategy schedules the first tenth of it
// and a fair random walk the rest, so that spin loops end, and a schedule
// past it runs on to ten times it before it fails.
const maxSteps = 10 * core.DefaultMaxSteps

// Result is what Test reports of one test to the driver (EnvOut).
type Result struct {
	Test      string `json:"test"`
	Schedules int    `json:"schedules"`
	Steps     int64  `json:"steps"`
	Nanos     int64  `json:"nanos"`
	Seed      uint64 `json:"seed"`
	Strategy  string `json:"strategy"`
	Failure   string `json:"failure,omitempty"` // the report
	Kind      string `json:"kind,omitempty"`
	Task      string `json:"task,omitempty"` // the failing task
	Location  string `json:"location,omitempty"`
	Message   string `json:"message,omitempty"` // the failure's message (a t.Fatalf's)
	Trace     string `json:"trace,omitempty"`   // the saved trace's path
	// Schedule is the failing schedule's number in the whole run (the
	// lowest failing one is the test's failure over all processes), -1 for
	// a saved trace that still fails (every process replays the corpus).
	Schedule int      `json:"schedule,omitempty"`
	Skipped  bool     `json:"skipped,omitempty"`
	Foreign  []string `json:"foreign,omitempty"`
	Hits     int      `json:"hits,omitempty"` // failing schedules, in counting mode (EnvCount)
	// Interrupted: a SIGINT or SIGTERM stopped the test's exploration
	// before its schedules ran (morpheus.Result.Interrupted).
	Interrupted bool `json:"interrupted,omitempty"`
	// Stale lists the saved traces (EnvCorpus) the test no longer
	// follows, "PATH: where the run left it" each: not failures.
	Stale []string `json:"stale,omitempty"`
	// Passed lists the saved traces whose replay passes: the bug they
	// recorded is fixed, and the entry can go (morpheus test -prune).
	Passed []string `json:"passed,omitempty"`
	// Stopped says why the test's exploration stopped: StopFailure,
	// StopTime, StopCut, StopSchedules, StopExhausted or StopInterrupted.
	Stopped string `json:"stopped,omitempty"`
	// Real: the test ran once on the real network and real time, not
	// under control (RealTest), because it reaches what this names.
	Real string `json:"real,omitempty"`
	// History says what a replay re-ran of the recording process's
	// history before it replayed the trace (EnvHistory).
	History string `json:"history,omitempty"`
	// Funcs are the module's functions the test executed, or that ran
	// outside every test before it ended, "PKG NAME" each (marks.go), if
	// Marked: the process's code has marks.
	Funcs  []string `json:"funcs,omitempty"`
	Marked bool     `json:"marked,omitempty"`
}

// Test runs an ordinary test's body under morpheus: the rewriter turns
// func TestX(t *testing.T) { body } into
// func TestX(t *testing.T) { rt.Test(t, func(t *testing.T) { body }) }.
// Each schedule runs the body as the main task of one iteration, with the
// same t; the test fails in a schedule if the body fails t (Error, Fatal,
// a panic, a deadlock, a goroutine blocked outside control), or if a
// goroutine it started is still blocked once the body and its cleanups have
// returned and nothing can run any more (a leak; EnvAllowLeaks). The first
// failing schedule ends the exploration: its trace is saved and t fails
// with morpheus's report and the command that replays it.
//
// The driver's settings (EnvSchedules, EnvOut, EnvCorpus, …) are read from
// the environment the process started with, and removed from it (env.go).
// A process that started with none of them (a child process a test
// started: its own binary re-run to see it crash, or to run a test in
// another environment) is a plain run of the test, as go test's: Test runs
// one schedule (seeded from the test's name), without shrinking, reports
// to no results file, replays no corpus, and saves a failing trace under
// $TMPDIR/morpheus-rewrite/traces.
//
// A SIGINT or SIGTERM stops the exploration as morpheus.Explore describes:
// the test reports what ran, fails if no schedule failed (the exploration
// is incomplete), and later tests of the process are skipped.
func Test(t *testing.T, body func(t *testing.T)) {
	t.Helper()
	testBegins()
	marksBegin()
	defer marksEnd()
	if interrupt.Interrupted() {
		// The record says the test did not start, so that the summary
		// lists it as interrupted, not as missing.
		report(t, &Result{Test: t.Name(), Interrupted: true, Stopped: StopInterrupted})
		t.Skip("morpheus: not run: the test process was interrupted")
	}
	opts, replay, err := options(t.Name())
	if err != nil {
		t.Fatalf("morpheus: %v", err)
	}
	count, err := counting(replay)
	if err != nil {
		t.Fatalf("morpheus: %v", err)
	}
	if count {
		// Every schedule runs: no time budget.
		opts = append(opts, explore.CountHits(func(string, string) bool { return true }), morpheus.Shrink(0), morpheus.ScaledDuration(0, 0))
	}
	skipped := false
	run := func(e *morpheus.Env) {
		if count {
			goruntime.ClearFailed(t) // a schedule fails t only by what it does itself
		}
		current = &schedule{env: e}
		defer func() { current = nil }()
		cleanups = cleanups[:0]
		defer runCleanups()
		current.runBody(t, body)
		if t.Skipped() {
			skipped = true
			return
		}
		current.windDown()
		if t.Failed() {
			e.Fatalf("%s failed by a call of its testing.TB that morpheus did not see (through an interface of your own?): its message is in the test's output", t.Name())
		}
		runCleanups()
		runFinalizers(core.CurrentTask()) // the test's objects are garbage now
	}
	history, err := historyPlan()
	if err != nil {
		t.Fatalf("morpheus: %s: %v", EnvHistory, err)
	}
	if history != nil && t.Name() != history.Test {
		historyTest(t, history, run)
		return
	}
	own := 0
	if history != nil {
		own = rerunHistory(t, history, run, historyOptions(history, t.Name()))
	}
	var saved *corpusRun
	if replay == "" && !count && corpusOn() {
		saved = replayCorpus(t, run, opts)
		if saved.failed != nil {
			corpusFailure(t, saved)
			return
		}
	}
	res, err := replayAgain(t, run, opts, replay)
	if err != nil {
		t.Fatalf("morpheus: %v", err)
	}
	if replay == "" && !count {
		if f := res.Failure; f != nil && f.Trace != nil {
			recordHistory(f.Trace, t.Name(), res.Seed, f.Iteration, f.Shrink)
		}
		ranExplore(t.Name(), res)
	}
	if saved != nil && res.Failure == nil && !res.Interrupted && !skipped {
		if saved.retryCorpus(t, run, opts); saved.failed != nil {
			corpusFailure(t, saved)
			return
		}
	}
	out := Result{Test: t.Name(), Schedules: res.Iterations, Steps: res.Steps, Nanos: int64(res.Elapsed),
		Seed: res.Seed, Strategy: res.Strategy, Foreign: Foreign(), Interrupted: res.Interrupted,
		Stopped: res.Stopped}
	out.Funcs, out.Marked = marksNow()
	if saved != nil {
		out.Stale, out.Passed = saved.stale, saved.passed
	}
	if history != nil {
		out.History = historyNote(history, t.Name(), own)
		t.Logf("morpheus: %s", out.History)
	}
	defer report(t, &out)
	if res.Interrupted && res.Failure == nil && !skipped {
		t.Errorf("morpheus: interrupted after %s, %s in all, no failure so far: the exploration is incomplete", plural.N(res.Iterations, "schedule"), plural.N(res.Steps, "step"))
	}
	if res.Stopped == StopCut && res.Failure == nil {
		t.Logf("morpheus: %s completed; the schedule running at the budget's limit (its time, or %d MiB more heap) was cut, without a failure so far (%s=FLOOR,FACTOR,LIMIT sets the limit, -iterations N runs N schedules to the end)", plural.N(res.Iterations, "schedule"), explore.HeapLimit>>20, EnvBudget)
	}
	if count {
		out.Hits = explore.ResultOf(res).Hits
		if want := scheduleCount(); res.Iterations < want {
			t.Errorf("morpheus: counting stopped after %d of %s: a t.Fatal (runtime.Goexit) ends the exploration; call t.Error in tests that count", res.Iterations, plural.N(want, "schedule"))
		}
	}
	if f := res.Failure; f != nil {
		if t.Skipped() || skipped {
			out.Skipped = true
			return
		}
		out.Kind, out.Task, out.Location, out.Message = f.Kind, f.Task, f.Location, f.Message
		out.Schedule = f.Iteration
		hintPath := f.Path
		switch {
		case replay == "" && f.Trace != nil:
			path, err := saveFailure(t.Name(), f.Trace)
			if err != nil {
				t.Logf("morpheus: could not save the trace: %v", err)
			}
			hintPath, out.Trace = path, absPath(path)
			f.Path = shownPath(path)
		case getenv(EnvShrink) != "" && f.Trace != nil:
			// A replay that shrinks (morpheus shrink): the shrunk trace
			// goes to the traces directory, not the corpus, with the
			// history the replayed trace records.
			markRewritten(f.Trace)
			keepHistory(f.Trace, replay)
			path, err := saveTrace(t.Name(), f.Trace)
			if err != nil {
				t.Logf("morpheus: could not save the trace: %v", err)
			}
			out.Trace = path
		default:
			out.Trace = absPath(replay)
		}
		out.Failure = f.Report() + replayLine(hintPath, t.Name())
		t.Errorf("%s", out.Failure)
		return
	}
	if skipped {
		out.Skipped = true
	}
}

// corpusFailure fails t with the saved trace that still fails: that is the
// test's failure, and its exploration does not run (or ran already).
func corpusFailure(t *testing.T, saved *corpusRun) {
	t.Helper()
	res, path := saved.failed, saved.path
	out := Result{Test: t.Name(), Schedules: res.Iterations, Steps: res.Steps, Nanos: int64(res.Elapsed),
		Seed: res.Seed, Strategy: res.Strategy, Foreign: Foreign(), Stale: saved.stale, Passed: saved.passed,
		Stopped: StopFailure}
	defer report(t, &out)
	f := res.Failure
	out.Kind, out.Task, out.Location, out.Message, out.Trace = f.Kind, f.Task, f.Location, f.Message, absPath(path)
	out.Schedule = -1
	out.Failure = "morpheus: saved trace " + shownPath(path) + " still fails\n" + f.Report() + replayLine(path, t.Name())
	t.Errorf("%s", out.Failure)
}

// options reads the environment.
func options(name string) (opts []morpheus.Option, replay string, err error) {
	// Every shared memory access of a rewritten test is a step: its
	// schedules are longer than a Check's, so its step limit is ten times
	// morpheus's default (EnvMaxSteps sets another).
	opts = append(opts, morpheus.Name(name), morpheus.Workers(1), morpheus.MaxSteps(maxSteps))
	if plainRun() {
		// As go test runs a test (see Test): one schedule, no shrinking.
		opts = append(opts, morpheus.Iterations(1), morpheus.Shrink(0))
	} else {
		budget, err := budgetOptions()
		if err != nil {
			return nil, "", err
		}
		opts = append(opts, budget...)
		shard, err := shardOptions()
		if err != nil {
			return nil, "", err
		}
		opts = append(opts, shard...)
		if s := getenv(EnvProgress); s != "" {
			opts = append(opts, explore.Heartbeat(s))
		}
	}
	if s := getenv(EnvSeed); s != "" {
		seed, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			return nil, "", fmt.Errorf("%s=%q: want a number", EnvSeed, s)
		}
		opts = append(opts, morpheus.Seed(seed))
	}
	if s := getenv(EnvStrategy); s != "" {
		opts = append(opts, morpheus.Strategy(s))
	}
	if s := getenv(EnvWatchdog); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, "", fmt.Errorf("%s=%q: want a duration", EnvWatchdog, s)
		}
		opts = append(opts, morpheus.Watchdog(d))
	}
	if s := getenv(EnvMaxSteps); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, "", fmt.Errorf("%s=%q: want a positive number", EnvMaxSteps, s)
		}
		opts = append(opts, morpheus.MaxSteps(n))
	}
	if s := getenv(EnvShrink); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, "", fmt.Errorf("%s=%q: want a number >= 0", EnvShrink, s)
		}
		opts = append(opts, morpheus.Shrink(n))
	}
	if s := getenv(EnvAllowRaces); s != "" {
		allow, err := strconv.ParseBool(s)
		if err != nil {
			return nil, "", fmt.Errorf("%s=%q: want true or false", EnvAllowRaces, s)
		}
		opts = append(opts, morpheus.AllowRaces(allow))
	}
	early := DefaultEarlyTimers
	if s := getenv(EnvEarlyTimers); s != "" {
		if early, err = strconv.Atoi(s); err != nil || early < -1 {
			return nil, "", fmt.Errorf("%s=%q: want a number >= -1", EnvEarlyTimers, s)
		}
	}
	opts = append(opts, morpheus.EarlyTimers(early))
	if s := getenv(EnvEpoch); s != "" {
		t, err := morpheus.ParseEpoch(s)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %v", EnvEpoch, err)
		}
		opts = append(opts, morpheus.Epoch(t))
	}
	if s := getenv(EnvAllowLeaks); s != "" {
		allow, err := strconv.ParseBool(s)
		if err != nil {
			return nil, "", fmt.Errorf("%s=%q: want true or false", EnvAllowLeaks, s)
		}
		opts = append(opts, morpheus.AllowLeaks(allow))
	}
	if replay = getenv(EnvReplay); replay != "" {
		opts = append(opts, morpheus.Replay(replay)) // last: Test leaves it out to warm up
	}
	return opts, replay, nil
}

// shownPath is a corpus entry's path (relative to the package's directory)
// as the user names it where morpheus test ran (EnvShownDir).
func shownPath(path string) string {
	d := getenv(EnvShownDir)
	if d == "" || path == "" || filepath.IsAbs(path) {
		return path
	}
	return d + "/" + filepath.ToSlash(path)
}

// replayLine is the line that ends a failure's report: how to replay its
// trace, or nothing without a trace.
func replayLine(path, test string) string {
	if h := hint(path, test); h != "" {
		return "replay: " + h + "\n"
	}
	return ""
}

func hint(path, test string) string {
	if path == "" {
		return ""
	}
	run := "^" + strings.ReplaceAll(test, "/", "$/^") + "$"
	if h := getenv(EnvHint); h != "" {
		return fmt.Sprintf(h, path, run)
	}
	return fmt.Sprintf("%s=%s go test -run '%s' (on the rewritten package)", EnvReplay, path, run)
}

// saveTrace writes a failing trace under the traces directory, named after
// the test and the hash of its content.
func saveTrace(test string, tr *trace.Trace) (string, error) {
	dir := getenv(EnvTraces)
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "morpheus-rewrite", "traces")
	}
	prefix := strings.NewReplacer("/", "_", " ", "_").Replace(test) + "-"
	return corpus.WriteHashed(dir, tr, func(sum []byte) string { return prefix + hex.EncodeToString(sum[:6]) })
}

var outMu sync.Mutex

// report appends r to the driver's results file, if there is one.
func report(t *testing.T, r *Result) {
	path := getenv(EnvOut)
	if path == "" {
		return
	}
	outMu.Lock()
	defer outMu.Unlock()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Logf("morpheus: %v", err)
		return
	}
	defer f.Close()
	if err := json.NewEncoder(f).Encode(r); err != nil {
		t.Logf("morpheus: %v", err)
	}
}

// cleanups are the functions registered with Cleanup in this iteration.
var cleanups []func()

func runCleanups() { runCleanupsFrom(0) }

// runCleanupsFrom runs the cleanups registered from the n-th on, the last
// first, and forgets them.
func runCleanupsFrom(n int) {
	for len(cleanups) > n {
		f := cleanups[len(cleanups)-1]
		cleanups[len(cleanups)-1] = nil // the array outlives the schedule: f's world must not
		cleanups = cleanups[:len(cleanups)-1]
		f()
	}
}

// Cleanup stands for t.Cleanup inside a test Test runs: f runs when the
// iteration's body returns, still under control.
func Cleanup(t testing.TB, f func()) {
	if !inTest() {
		t.Cleanup(f)
		return
	}
	cleanups = append(cleanups, f)
}

// Run stands for t.Run: the subtest runs inline, in the same schedule, with
// the parent's t. The functions it registers with t.Cleanup run when it
// returns, as they do when a subtest ends, before the rest of its parent
// (which may check, as goleak does, what they stopped). The goroutines it
// starts, and those they start, carry its name (t's, a slash, name as go
// test spells it), which a leak report gives. A t.Fatal, t.FailNow or
// t.Skip of the subtest's own task ends the subtest only, as in go test:
// the parent goes on, and Run reports whether the subtest failed.
func Run(t *testing.T, name string, f func(t *testing.T)) (ok bool) {
	task := core.CurrentTask()
	if task == nil {
		return t.Run(name, f)
	}
	s := current
	fails := 0
	if s != nil {
		fails = s.fails
		s.subs = append(s.subs, task)
		defer func() {
			// Recover only the panic exitSubtest raised for this
			// subtest: any other goes on with its stack intact.
			if s.exit == len(s.subs) {
				s.exit = 0
				if p := recover(); p != nil {
					if _, mine := p.(subtestExit); !mine {
						panic(p)
					}
				}
			}
			s.subs = s.subs[:len(s.subs)-1]
			ok = s.fails == fails
		}()
	}
	outer := task.Subtest
	defer func() { task.Subtest = outer }()
	defer runCleanupsFrom(len(cleanups))
	parent := outer
	if parent == "" {
		parent = t.Name()
	}
	task.Subtest = parent + "/" + subtestName(name)
	f(t)
	return !t.Failed() // s != nil: the deferred function says
}

// subtestName spells a subtest's name as package testing does: spaces
// become underscores, and characters that do not print are quoted.
func subtestName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Parallel stands for t.Parallel: under control it does nothing.
func Parallel(t *testing.T) {
	if !inTest() {
		t.Parallel()
	}
}
