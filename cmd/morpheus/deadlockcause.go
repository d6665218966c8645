package main

import (
	"strings"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/report"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// explainDeadlocks puts the wait-for cycle of each deadlocked rewritten
// test, in the sentence the HTML report's deadlock section opens with, on
// the console: the FAIL line's headline is the
// cycle ("A lock-order inversion: g1 holds mutex#4 bank.go:28 (since step
// 6) and waits for mutex#5 bank.go:30, held by g2; …"), above the report
// that lists every blocked task. A deadlock without a cycle (tasks waiting for
// values nobody sends) keeps its list of blocked tasks. In the report the
// line of each task that waits on a lock says where it waits, for what, and
// who holds that since where (report.DeadlockWaits), as does a leak's, and
// so does the FAIL line of a deadlock without a cycle or of a leak.
func explainDeadlocks(sum *driver.Summary) {
	for _, p := range sum.Packages {
		for _, t := range p.Tests {
			if t.Kind != "deadlock" && t.Kind != "leak" || t.Trace == "" {
				continue
			}
			tr, err := morpheus.ReadTrace(t.Trace)
			if err != nil {
				continue
			}
			if cause := report.DeadlockCause(tr); cause != "" {
				t.Task, t.Message = "", cause
			}
			lines, words := report.DeadlockWaits(tr)
			for i, l := range lines {
				t.Failure = strings.Replace(t.Failure, l, words[i], 1)
				t.Message = strings.Replace(t.Message, l, words[i], 1)
			}
		}
	}
}
