package main

import (
	"fmt"
	"strings"
)

// A failure's one-line form, shared by the summaries of morpheus test and
// merge, the HTML index and morpheus replay: its kind, the task and the
// file:line it happened at (each left out when unknown, never an empty
// "at :"), and the message's headline.

// failureLine describes a failure in one line; iteration is its index in
// the run (from 0, as records keep it), shown counted from 1; < 0 leaves it
// out: "deadlock failure in iteration 2, main: no task can run …" (index 1),
// "assertion failure in main at bank.go:17: balance 3".
func failureLine(kind string, iteration int, task, loc, msg string) string {
	s := kind + " failure"
	sep := " in "
	if iteration >= 0 {
		s += fmt.Sprintf(" in iteration %d", iteration+1)
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
// the next ones ("blocked tasks:"), one of them follows it, and "…" says
// that more lines were left out. Of a deadlock's blocked tasks that is the
// first goroutine's rather than the test's body (main), which usually only
// waits for the goroutines (in wg-wait, on a result channel) that are stuck.
func headline(msg string) string {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	h := strings.TrimSpace(lines[0])
	rest := lines[1:]
	if strings.HasSuffix(h, ":") && len(rest) > 0 {
		pick := 0
		if strings.HasPrefix(strings.TrimSpace(rest[0]), "main: ") && len(rest) > 1 {
			pick = 1
		}
		h += " " + strings.TrimSpace(rest[pick])
		rest = append(rest[:pick:pick], rest[pick+1:]...)
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
