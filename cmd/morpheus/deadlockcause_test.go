package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
	"github.com/morpheus-go/morpheus/trace"
)

// A leak's FAIL line and report say where the goroutine waits and for what,
// one "at" per phrase, as a deadlock's do; the trace's message keeps its
// form.
func TestExplainLeakWords(t *testing.T) {
	line := "g1: blocked in chan-send on chan#3 created at leak.go:5 at leak.go:7; started at leak.go:7"
	msg := "1 goroutine leaked: the main task has returned, and it is blocked forever:\n  " + line
	tr := &trace.Trace{
		Header: trace.Header{Version: trace.FormatVersion, Test: "TestFirst", Strategy: "pos",
			Failure: &trace.Failure{Kind: "leak", Message: msg, Task: 1}},
		Tasks: []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "g1"}},
	}
	path := filepath.Join(t.TempDir(), "trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Encode(f, tr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ts := &driver.TestSummary{Name: "TestFirst", Kind: "leak", Trace: path,
		Message: strings.ReplaceAll(msg, "\n ", ""), Failure: "morpheus: leak failure in TestFirst\n    " + msg + "\n"}
	explainDeadlocks(&driver.Summary{Packages: []*driver.PackageSummary{{Path: "m/leak", Tests: []*driver.TestSummary{ts}}}})
	want := "g1: waits in chan-send at leak.go:7 for chan#3 (created at leak.go:5); started at leak.go:7"
	if !strings.Contains(ts.Message, want) || strings.Contains(ts.Message, "blocked in") {
		t.Errorf("FAIL line's message %q, want it to hold %q", ts.Message, want)
	}
	if !strings.Contains(ts.Failure, want) {
		t.Errorf("report %q, want it to hold %q", ts.Failure, want)
	}
}
