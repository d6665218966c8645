package driver

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/morpheus-go/morpheus/rt"
	"github.com/morpheus-go/morpheus/trace"
)

// replayPackage replays cfg.Replay in p. A trace found late in its test
// process may depend on package-level state that earlier runs of the
// process left (a library's global settings, caches, free lists filled by
// earlier schedules): alone, its replay then diverges (stale-trace or
// nondeterminism). The trace records those runs (trace.Header.Ran): the
// tests that ran before it with the exact schedules each ran, and its own
// test's schedules before it. When the replay alone diverges and the trace
// has such a history, replayPackage replays it again in a new process that
// first re-runs that history (rt.EnvHistory: every earlier test runs its
// recorded schedules, by count, not by time, saving and reporting nothing;
// then the test its own), and reports that replay, saying what it re-ran
// and where the replay alone had diverged. A trace without a history
// replays as before.
func replayPackage(ctx context.Context, cfg Config, p *PackageSummary) {
	h := historyOf(cfg.Replay)
	if h == nil {
		runPackage(ctx, cfg, p)
		return
	}
	finished := cfg.Finished
	alone := cfg
	alone.Finished = nil // handed over once it is known which replay counts
	runPackage(ctx, alone, p)
	t := replayed(p, h.Test)
	if p.Err != nil || t == nil || (t.Kind != "stale-trace" && t.Kind != "nondeterminism") {
		handOver(finished, p)
		return
	}
	diverged := t.Kind + ": " + where(t.Message)
	again := cfg
	again.Finished = nil
	again.Run = historyRun(h)
	again.Env = append(slices.Clip(cfg.Env), rt.EnvHistory+"=true")
	if cfg.Env == nil {
		again.Env = append(os.Environ(), rt.EnvHistory+"=true")
	}
	first := *p
	p.Tests, p.Checks, p.Err, p.Output = nil, nil, nil, ""
	runPackage(ctx, again, p)
	if t2 := replayed(p, h.Test); t2 == nil || p.Err != nil {
		// The history's process failed outside the replay: the replay
		// alone is the answer, with why the other did not give one.
		why := "its process ended without replaying it"
		if p.Err != nil {
			why = p.Err.Error()
		}
		*p = first
		t.History = "re-running the recording process's history before the replay failed: " + why
	} else {
		t2.History += "; the replay alone diverged (" + diverged + ")"
		p.Tests = []*TestSummary{t2}
	}
	handOver(finished, p)
}

// historyOf reads the header of the trace at path: nil if it records no
// history (a trace written before ran lines, or one found first in its
// process) or cannot be read (the replay says why).
func historyOf(path string) *trace.Header {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	h, err := trace.DecodeHeader(f, path)
	if err != nil || len(h.Ran) == 0 || h.Test == "" {
		return nil
	}
	return h
}

// historyRun is the -test.run pattern of h's tests: those its history
// names and its own, which go test runs in the order the recording
// process ran them (the test binary's).
func historyRun(h *trace.Header) string {
	names := []string{regexp.QuoteMeta(h.Test)}
	for _, r := range h.Ran {
		if q := regexp.QuoteMeta(r.Test); !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	return "^(" + strings.Join(names, "|") + ")$"
}

// replayed returns the record of test in p, nil if there is none.
func replayed(p *PackageSummary, test string) *TestSummary {
	for _, t := range p.Tests {
		if t.Name == test {
			return t
		}
	}
	return nil
}

// handOver hands p's tests over to finished, as the collector would have.
func handOver(finished func(*PackageSummary, *TestSummary), p *PackageSummary) {
	if finished == nil {
		return
	}
	for _, t := range p.Tests {
		finished(p, t)
	}
}

// where is where a diverging replay's message says it left the trace
// ("at step 313 it expected …"), or its first line.
func where(msg string) string {
	msg, _, _ = strings.Cut(msg, "\n")
	if i := strings.Index(msg, "at step "); i >= 0 {
		msg = msg[i:]
	}
	return strings.TrimSuffix(msg, "; delete it if the bug is fixed")
}
