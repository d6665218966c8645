package rt

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

// A test process's history. Package-level state (a library's global
// settings, caches, free lists) outlives a schedule: a schedule found late
// in a process may take a path that depends on what ran before it in that
// process, and replay alone on another (a stale trace). So the process
// keeps, in order, the runs its rewritten tests made (processRan), and a
// failing trace records those before it (trace.Header.Ran): the tests that
// ran before, each exploration with its seed, shard, and how many
// schedules and shrinking candidates it ran (counts, not time budgets, so
// that a re-run is the same), and the schedules of its own test before it.
// A replay that diverges alone is run again (driver) in a process that
// first re-runs that history (EnvHistory): every earlier test runs exactly
// its recorded runs, saving and reporting nothing, and then the trace is
// replayed.

// EnvHistory, set to true with EnvReplay, re-runs the history the replayed
// trace records (its ran lines) before the replay: the tests it names run
// their recorded schedules, and the trace's own test its own before it
// replays the trace.
const EnvHistory = "MORPHEUS_RT_HISTORY"

var (
	ranMu       sync.Mutex
	processRan  []trace.Run // the runs of this process's rewritten tests, in order
	historyDone rerun       // with EnvHistory, what the earlier tests re-ran
)

// rerun counts what a history re-run ran.
type rerun struct {
	tests     []string
	schedules int
	real      int      // of tests, those that ran on the real network
	missing   []string // saved traces the history replayed that are gone
	short     []string // explorations that ran fewer schedules than recorded, and why
}

// ranReplay records the replay of the saved trace at path by test.
func ranReplay(test, path string) {
	ranMu.Lock()
	defer ranMu.Unlock()
	processRan = append(processRan, trace.Run{Test: test, Replay: path})
}

// ranReal records test's one run on the real network (RealTest), which
// reached it by why: what it left in the process (a codec's type cache it
// filled, a library's global settings) is as much the process's history as
// an exploration's schedules.
func ranReal(test, why string) {
	ranMu.Lock()
	defer ranMu.Unlock()
	processRan = append(processRan, trace.Run{Test: test, Real: why})
}

// exploreRun is the run of test's exploration that ran the schedules
// numbered below below (of the process's shard) and shrink candidates;
// ok is false when it ran none.
func exploreRun(test string, seed uint64, below, shrink int) (trace.Run, bool) {
	k, m, _ := processShard()
	if m <= 1 {
		k, m = 0, 0
	}
	if shardShare(below, k, max(m, 1)) == 0 {
		return trace.Run{}, false
	}
	return trace.Run{Test: test, Seed: seed, Strategy: getenv(EnvStrategy), Shard: k, Shards: m, Schedules: below, Shrink: shrink}, true
}

// ranExplore records test's exploration, which returned res.
func ranExplore(test string, res *morpheus.Result) {
	failed, shrink := -1, 0
	if f := res.Failure; f != nil && !res.Interrupted {
		failed = f.Iteration
		if f.Shrink != nil {
			shrink = f.Shrink.Candidates
		}
	}
	k, m, _ := processShard()
	if r, ok := exploreRun(test, res.Seed, scheduleBound(res.Iterations, failed, k, m), shrink); ok {
		ranMu.Lock()
		processRan = append(processRan, r)
		ranMu.Unlock()
	}
}

// scheduleBound is the number below which an exploration of shard k of m
// ran every schedule of its shard: the one after the failing schedule
// failed (-1: none), else after the last of the iterations the shard ran
// (schedules k, k+m, k+2m, …).
func scheduleBound(iterations, failed, k, m int) int {
	switch {
	case failed >= 0:
		return failed + 1
	case iterations > 0:
		return k + (iterations-1)*m + 1
	}
	return 0
}

// recordHistory sets in tr, the failure test's exploration found at
// schedule iter, the runs of the process before it: those of earlier tests
// and test's own (its corpus replays, its schedules before iter). A shrunk
// trace (shrink: its ShrinkStats, nil if shrinking did not run) is the
// Best-th candidate of shrinking: the failing schedule and the candidates
// before it ran too.
func recordHistory(tr *trace.Trace, test string, seed uint64, iter int, shrink *morpheus.ShrinkStats) {
	ranMu.Lock()
	ran := slices.Clone(processRan)
	ranMu.Unlock()
	below, candidates := iter, 0
	if shrink != nil && shrink.Best > 0 {
		below, candidates = iter+1, shrink.Best-1
	}
	if r, ok := exploreRun(test, seed, below, candidates); ok {
		ran = append(ran, r)
	}
	tr.Header.Ran = ran
}

// historyPlan is the replayed trace's header with EnvHistory, nil without.
var historyPlan = sync.OnceValues(func() (*trace.Header, error) {
	on, _ := strconv.ParseBool(getenv(EnvHistory))
	path := getenv(EnvReplay)
	if !on || path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return trace.DecodeHeader(f, path)
})

// runsOf returns the runs of test in h's history.
func runsOf(h *trace.Header, test string) []trace.Run {
	var out []trace.Run
	for _, r := range h.Ran {
		if r.Test == test {
			out = append(out, r)
		}
	}
	return out
}

// rerunHistory runs, with EnvHistory, the runs the replayed trace records
// of test (t) before its iteration, with the settings the trace records,
// saving and reporting nothing; it returns how many schedules ran.
func rerunHistory(t *testing.T, h *trace.Header, run func(*morpheus.Env), base []morpheus.Option) int {
	t.Helper()
	n := 0
	for _, r := range runsOf(h, t.Name()) {
		if r.Replay != "" {
			if _, err := os.Stat(r.Replay); err != nil {
				ranMu.Lock()
				historyDone.missing = append(historyDone.missing, r.Replay)
				ranMu.Unlock()
				t.Logf("morpheus: the recording process replayed %s here, which is gone", r.Replay)
				continue
			}
			if _, err := morpheus.Explore(run, append(slices.Clip(base), morpheus.Replay(r.Replay))...); err != nil {
				t.Logf("morpheus: re-running the replay of %s: %v", r.Replay, err)
			}
			n++
			continue
		}
		opts := append(slices.Clip(base), morpheus.Seed(r.Seed), morpheus.Iterations(r.Schedules),
			morpheus.Shrink(r.Shrink), morpheus.ShrinkTime(time.Hour), morpheus.ScaledDuration(0, 0))
		if r.Strategy != "" {
			opts = append(opts, morpheus.Strategy(r.Strategy))
		}
		if r.Shards > 1 {
			opts = append(opts, morpheus.Shard(r.Shard, r.Shards))
		}
		res, err := morpheus.Explore(run, opts...)
		if err != nil {
			t.Logf("morpheus: re-running %s's schedules: %v", t.Name(), err)
			continue
		}
		n += res.Iterations
		if why := shortRun(r, res); why != "" {
			ranMu.Lock()
			historyDone.short = append(historyDone.short, t.Name()+" "+why)
			ranMu.Unlock()
			t.Logf("morpheus: re-running %s's schedules: %s", t.Name(), why)
		}
	}
	return n
}

// shortRun says how the re-run res of the recorded exploration r fell
// short of it ("ran 53 of 73 schedules: schedule 105 failed"), "" if it
// ran them all: then the history did not re-run as recorded.
func shortRun(r trace.Run, res *morpheus.Result) string {
	want := shardShare(r.Schedules, r.Shard, max(r.Shards, 1))
	if res.Iterations >= want {
		return ""
	}
	why := "it stopped"
	if f := res.Failure; f != nil {
		why = fmt.Sprintf("its schedule %d failed (%s)", f.Iteration, f.Kind)
	} else if res.Stopped != "" {
		why = "it stopped (" + res.Stopped + ")"
	}
	return fmt.Sprintf("ran %d of %d %s: %s", res.Iterations, want, plural.Of(want, "schedule"), why)
}

// historyReal runs test t, which reaches the real network (RealTest, why),
// as an earlier test of the replayed trace's history (EnvHistory): once on
// the real network, as the recording process ran it, nothing reported.
func historyReal(t *testing.T, h *trace.Header, why string, body func(t *testing.T)) {
	t.Helper()
	if !slices.ContainsFunc(runsOf(h, t.Name()), func(r trace.Run) bool { return r.Real != "" }) {
		t.Skip("morpheus: not in the history of the trace replayed")
	}
	ranMu.Lock()
	historyDone.tests = append(historyDone.tests, t.Name())
	historyDone.real++
	ranMu.Unlock()
	t.Logf("morpheus: re-runs %s of the recording process before the replay, once on the real network and real time, as it ran there: %s", t.Name(), why)
	runReal(t, body)
}

// historyOptions are the options of a re-run of the runs h records: the
// settings the trace records (maxsteps, earlytimers, allowleaks,
// allowraces, epoch), which were the recording process's, on the base
// options of the test.
func historyOptions(h *trace.Header, name string) []morpheus.Option {
	opts := []morpheus.Option{morpheus.Name(name), morpheus.Workers(1), morpheus.MaxSteps(maxSteps)}
	if s := getenv(EnvWatchdog); s != "" {
		if d, err := time.ParseDuration(s); err == nil {
			opts = append(opts, morpheus.Watchdog(d))
		}
	}
	o := h.Options
	if n, err := strconv.Atoi(o["maxsteps"]); err == nil && n > 0 {
		opts = append(opts, morpheus.MaxSteps(n))
	}
	early, _ := strconv.Atoi(o["earlytimers"])
	opts = append(opts, morpheus.EarlyTimers(max(early, 0)))
	if b, err := strconv.ParseBool(o["allowleaks"]); err == nil {
		opts = append(opts, morpheus.AllowLeaks(b))
	}
	if b, err := strconv.ParseBool(o["allowraces"]); err == nil {
		opts = append(opts, morpheus.AllowRaces(b))
	}
	if s := o["epoch"]; s != "" {
		if e, err := morpheus.ParseEpoch(s); err == nil {
			opts = append(opts, morpheus.Epoch(e))
		}
	}
	return opts
}

// historyTest runs test t as an earlier test of the replayed trace's
// history (EnvHistory): its recorded runs, nothing reported or saved.
func historyTest(t *testing.T, h *trace.Header, run func(*morpheus.Env)) {
	t.Helper()
	if len(runsOf(h, t.Name())) == 0 {
		t.Skip("morpheus: not in the history of the trace replayed")
	}
	n := rerunHistory(t, h, run, historyOptions(h, t.Name()))
	ranMu.Lock()
	historyDone.tests = append(historyDone.tests, t.Name())
	historyDone.schedules += n
	ranMu.Unlock()
	t.Logf("morpheus: re-ran %s of the recording process before the replay (%s)", t.Name(), plural.N(n, "schedule"))
}

// historyNote says what ran before the replay of the trace of test, whose
// own earlier schedules own are: "replayed after re-running …".
func historyNote(h *trace.Header, test string, own int) string {
	ranMu.Lock()
	d := historyDone
	ranMu.Unlock()
	var parts []string
	if len(d.tests) > 0 {
		what := plural.N(d.schedules, "schedule")
		if d.real > 0 {
			what += fmt.Sprintf(", %d on the real network", d.real)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", plural.N(len(d.tests), "earlier test"), what))
	}
	if own > 0 {
		parts = append(parts, fmt.Sprintf("%d earlier %s of %s", own, plural.Of(own, "schedule"), test))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing")
	}
	note := "replayed after re-running " + strings.Join(parts, " and ") + " of the recording process"
	if want := countTests(h, test); want > len(d.tests) {
		note += fmt.Sprintf(" (%d of the %d earlier tests it records did not run)", want-len(d.tests), want)
	}
	if len(d.missing) > 0 {
		note += fmt.Sprintf(" (%s it replayed gone)", plural.N(len(d.missing), "saved trace"))
	}
	if len(d.short) > 0 {
		note += "; the history did not re-run as recorded (" + strings.Join(d.short, "; ") + ")"
	}
	return note
}

// countTests is how many tests other than test h's history names.
func countTests(h *trace.Header, test string) int {
	seen := map[string]bool{}
	for _, r := range h.Ran {
		if r.Test != test {
			seen[r.Test] = true
		}
	}
	return len(seen)
}

// keepHistory gives tr, shrunk from the trace at path, the history that
// trace records: the shrunk schedule ran in the same process state.
func keepHistory(tr *trace.Trace, path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if h, err := trace.DecodeHeader(f, path); err == nil && tr.Header.Ran == nil {
		tr.Header.Ran = h.Ran
	}
}
