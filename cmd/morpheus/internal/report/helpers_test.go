package report

import (
	"os"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/trace"
)

// load decodes a trace of testdata.
func load(t testing.TB, name string) *trace.Trace {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.Decode(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// failingData is the report data of a run that failed with tr.
func failingData(tr *trace.Trace) *Data {
	f := tr.Header.Failure
	task := ""
	if f.Task >= 0 {
		task = tr.TaskName(f.Task)
	}
	return &Data{
		Test: tr.Header.Test, Strategy: tr.Header.Strategy, Seed: 42,
		Iterations: 120, Failures: 3, Steps: 98765, Elapsed: 1500 * time.Millisecond,
		Coverage: []CoveragePoint{{1, 1}, {10, 8}, {50, 31}, {100, 47}, {120, 52}},
		Failure: &FailureView{
			Kind: f.Kind, Message: f.Message, Task: task, Location: f.Loc,
			Trace: tr, OriginalSteps: tr.Steps() + 40,
		},
	}
}
