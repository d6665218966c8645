package main

import (
	"fmt"
	"strings"
)

// A failure's one-line form, shared by the summaries of morpheus test and
// merge, the HTML index and morpheus replay: its kind, the task and the
// file:line it happened at (each left out when unknown, never an empty
// "at :"), and the message's headline.

// failureLine describes a failure in one line; iteration < 0 leaves it out:
// "deadlock failure in iteration 2, main: no task can run …",
// "assertion failure in main at bank.go:17: balance 3".
func failureLine(kind string, iteration int, task, loc, msg string) string {
	s := kind + " failure"
	sep := " in "
	if iteration >= 0 {
		s += fmt.Sprintf(" in iteration %d", iteration)
		sep = ", "
	}
	if task != "" {
		s += sep + task
	}
	if loc != "" && loc != "?" {
		s += " at " + loc
	}
	if h := headline(msg); h != "" {
		s += ": " + h
	}
	return s
}

// headline is a message's first line; when that line only introduces
// the next ones ("blocked tasks:"), the first of them follows it, and "…"
// says that more lines were left out.
func headline(msg string) string {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	h := strings.TrimSpace(lines[0])
	rest := lines[1:]
	if strings.HasSuffix(h, ":") && len(rest) > 0 {
		h += " " + strings.TrimSpace(rest[0])
		rest = rest[1:]
	}
	if len(rest) > 0 {
		h += " …"
	}
	return h
}

// testName names a test with its package, when known.
func testName(pkg, test string) string {
	if pkg == "" {
		return test
	}
	return pkg + " " + test
}
