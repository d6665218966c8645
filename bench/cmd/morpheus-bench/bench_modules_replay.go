package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Replays of bench modules: right after the cold run, each failure whose
// report ends with the line that says how to replay its trace ("replay:
// morpheus test -replay … -run '^TestX$' ./pkg", rt's replay line) is
// replayed with that very command, run from the module's directory as the
// user would run it, with -json (to read its verdict) and the run's rewrite
// cache added. A failure replays when the replay fails it with the same
// kind at the same line.

// replaySame is a verdict's Replay when its replay gave the same failure.
const replaySame = "same"

// replayPrefix starts the replay line of a failure's report.
const replayPrefix = "replay: morpheus "

// printedReplay is the command after "morpheus " on r's replay line, or ""
// when its report has none.
func printedReplay(r *testRecord) string {
	for _, line := range strings.Split(r.Failure, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), replayPrefix); ok {
			return rest
		}
	}
	return ""
}

// replayFailures replays every failure of m that has a replay line, in dir,
// and says per "package test" what the replay gave: replaySame, or the
// failure it gave instead ("passed", "KIND at LOCATION", "no record: …").
// A failure without a replay line (a test that ran on the real network,
// a package error) is not in the map.
func replayFailures(self, dir, cache string, m *morpheusRun, env []string, timeout time.Duration) map[string]string {
	out := map[string]string{}
	pkgs := make([]string, 0, len(m.Records))
	for p := range m.Records {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		names := make([]string, 0, len(m.Records[p]))
		for n := range m.Records[p] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			r := m.Records[p][n]
			cmd := printedReplay(r)
			if r.Kind == "" || cmd == "" {
				continue
			}
			out[p+" "+n] = replayOnce(self, dir, cache, cmd, r, env, timeout)
		}
	}
	return out
}

// replayOnce runs one printed replay command (cmd, after "morpheus ") and
// compares its record of r's test with r.
func replayOnce(self, dir, cache, cmd string, r *testRecord, env []string, timeout time.Duration) string {
	rest, ok := strings.CutPrefix(cmd, "test ")
	if !ok {
		return "not a morpheus test command: " + cmd
	}
	line := shellQuote(self) + " test -json -report= -cache " + shellQuote(cache) + " " + rest
	outb, err := runBoundedGrace(dir, env, timeout, interruptGrace, "sh", "-c", line)
	var got *testRecord
	eachTestRecord(outb, func(x *testRecord) {
		if x.Test == r.Test {
			got = x
		}
	})
	switch {
	case got == nil && err != nil:
		return "no record: " + firstLine(err.Error())
	case got == nil:
		return "no record"
	case got.Kind == "":
		return "passed"
	case got.Kind == r.Kind && got.Location == r.Location:
		return replaySame
	}
	return fmt.Sprintf("%s at %s", got.Kind, got.Location)
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
