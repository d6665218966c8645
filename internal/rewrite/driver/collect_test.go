package driver

import (
	"path/filepath"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// A test that ran outside control is handed over only once testing's
// verdict on it is read from the process that ran it: its record may be
// read before the output's lines, and goroutines it left behind may still
// crash the process before the verdict (failCrashed).
func TestRealTestWaitsForItsVerdict(t *testing.T) {
	t.Parallel()
	outputs := make([]*procOutput, 2)
	for j := range outputs {
		o, err := newProcOutput(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		defer o.Close()
		outputs[j] = o
	}
	c := &collector{p: &PackageSummary{}, jobs: 2, outputs: outputs, byName: map[string]*collected{}}
	c.add(rt.Result{Test: "TestReal", Real: "io.Pipe at x_test.go:3"}, 1) // the other process: what it is
	c.add(rt.Result{Test: "TestReal", Real: "io.Pipe at x_test.go:3", Schedules: 1}, 0)
	e := c.byName["TestReal"]
	if c.complete(e) {
		t.Fatal("complete with neither process's output read")
	}
	outputs[1].Write([]byte(frameByte + "=== RUN   TestReal\n" + frameByte + "--- SKIP: TestReal (0.00s)\n"))
	if c.complete(e) {
		t.Fatal("complete with the verdict of the process that did not run it only")
	}
	outputs[0].Write([]byte(frameByte + "=== RUN   TestReal\nlog\n"))
	if c.complete(e) {
		t.Fatal("complete before the verdict of the process that ran it")
	}
	outputs[0].Write([]byte(frameByte + "--- PASS: TestReal (0.01s)\n"))
	if !c.complete(e) {
		t.Fatal("not complete once every verdict is read")
	}
}
