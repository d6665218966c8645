package shapes_test

import (
	"regexp"
	"strings"
	"testing"
)

// A rewritten test whose goroutine waits on a context nobody cancels fails
// with a leak that names the goroutine, the channel, and where it was
// started; its trace replays to the same leak, and AllowLeaks lets it pass.
// Goroutines that end, after a cancel or a sleep, are no leak.
func TestLeak(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "leak", 20, 1)
	sum := explore(t, cfg)
	for _, name := range []string{"TestRollback", "TestSleeper"} {
		if ts := find(sum, name); ts == nil || ts.Failure != "" {
			t.Errorf("%s: %+v", name, ts)
		}
	}
	ts := find(sum, "TestCommit")
	if ts == nil || ts.Kind != "leak" {
		t.Fatalf("TestCommit: want a leak, got %+v", ts)
	}
	want := regexp.MustCompile(`g\d+: blocked in chan-recv on chan#\d+ created at tx\.go:\d+ at tx\.go:22; started at tx\.go:17`)
	if !strings.Contains(ts.Failure, "1 goroutine leaked") || !want.MatchString(ts.Failure) {
		t.Errorf("report does not match %s:\n%s", want, ts.Failure)
	}
	if ts.Location != "tx.go:22" {
		t.Errorf("location %q, want tx.go:22", ts.Location)
	}

	// The replay and the run with AllowLeaks, at once.
	rcfg := cfg
	rcfg.Replay, rcfg.Run = ts.Trace, "^TestCommit$"
	cfg.AllowLeaks, cfg.Run = true, "^TestCommit$"
	runs := runAtOnce(t, rcfg, cfg)
	rep, allowed := runs[0], runs[1]
	if got := find(rep, "TestCommit"); got == nil || got.Kind != "leak" || !strings.Contains(got.Failure, "strategy replay") || !want.MatchString(got.Failure) {
		t.Errorf("replay: %+v", got)
	}
	if got := find(allowed, "TestCommit"); got == nil || got.Failure != "" {
		t.Errorf("with AllowLeaks: %+v", got)
	}
}
