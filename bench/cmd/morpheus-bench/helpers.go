package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// testRecord is one test's outcome in "morpheus test -json"'s output, as
// the suites that run morpheus test (goreal, modules) read it: the fields
// of the command's record (cmd/morpheus's testRecord), which is the
// contract between the two programs.
type testRecord struct {
	Package   string   `json:"package"`
	Test      string   `json:"test"`
	Schedules int      `json:"schedules"`
	Steps     int64    `json:"steps"`
	Skipped   bool     `json:"skipped,omitempty"`
	Kind      string   `json:"kind,omitempty"`
	Location  string   `json:"location,omitempty"`
	Task      string   `json:"task,omitempty"`
	Message   string   `json:"message,omitempty"` // the failure's message (a t.Fatalf's)
	Failure   string   `json:"failure,omitempty"` // the report
	Trace     string   `json:"trace,omitempty"`
	Log       string   `json:"log,omitempty"` // the failing process's output, saved next to the trace
	Foreign   []string `json:"foreign,omitempty"`
	Error     string   `json:"error,omitempty"` // the package's build or run error
	Check     bool     `json:"check,omitempty"` // a test that calls morpheus.Check, run as it is; Schedules are its iterations
	Stale     []string `json:"stale,omitempty"` // a Check's corpus entries recorded on different code ("PATH: where the run left it")
	// Interrupted: a ^C (SIGINT, SIGTERM) stopped the test before its
	// schedules ran.
	Interrupted bool   `json:"interrupted,omitempty"`
	Real        string `json:"real,omitempty"` // the test ran once on the real network, not under control, because it reaches this
	// Stopped says why a rewritten test's exploration stopped: failure,
	// budget-time, budget-schedules, exhausted or interrupted.
	Stopped string `json:"stopped,omitempty"`
	// Seconds is the longest time one of its processes explored it.
	Seconds float64 `json:"seconds,omitempty"`
	// Passed: saved traces of a rewritten test whose replay passes (the
	// bug is fixed); Pruned: those -prune deleted (stale or passing).
	Passed []string `json:"passed,omitempty"`
	Pruned []string `json:"pruned,omitempty"`
}

// parseSeed reads -seed: empty (0, from each test's name), a number, or
// "random" (a fresh seed, printed so that the run can be repeated), as
// morpheus test does.
func parseSeed(s string) (uint64, error) {
	switch s {
	case "":
		return 0, nil
	case "random":
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		return binary.LittleEndian.Uint64(b[:]) | 1, nil
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("-seed %q: want a number or \"random\"", s)
	}
	return n, nil
}

// earlyTimers turns the -earlytimers flag into driver.Config.EarlyTimers,
// where 0 means rt's default and a negative number none.
func earlyTimers(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "(no stderr)"
	}
	return s
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

func indentLines(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
