package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// After an interrupt, a test that had not started and a package whose
// tests had not started are listed as not run, and nothing failed.
func TestSummaryNotRun(t *testing.T) {
	sum := &driver.Summary{Packages: []*driver.PackageSummary{
		{Path: "m/a", Tests: []*driver.TestSummary{
			{Name: "TestLong", Schedules: 500, Interrupted: true},
			{Name: "TestNext", Interrupted: true},
		}},
		{Path: "m/b", Err: driver.ErrNotRun},
	}}
	var b bytes.Buffer
	printTestSummary(&b, sum)
	for _, want := range []string{
		"INTR m/a TestLong: 500 schedules, interrupted (no failure so far)\n",
		"INTR m/a TestNext: not run (interrupted before it started)\n",
		"INTR m/b: not run (interrupted before its tests started)\n",
		"package m/b: 0 schedules, build 0s\n", // no "in 0s (0 schedules/s)"
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "ERROR") || sum.Failed() {
		t.Errorf("an interrupted run without a failure failed:\n%s", b.String())
	}
}
