package shapes_test

import (
	"strings"
	"testing"
)

// A test outside control (io.Pipe) whose goroutine panics once its body has
// returned ends the test process: as go test has it, the test fails with
// the panic, located at the goroutine's line, and the package has no error
// of its own. Before, the test's record (written when its body returned)
// said it passed and the package failed "outside morpheus's control".
func TestRealTestCrash(t *testing.T) {
	t.Parallel()
	sum := explore(t, testdataConfig(t, "realcrash", 2, 1))
	ts := find(sum, "TestSendOnClosedAfterBody")
	if ts == nil {
		t.Fatal("no record of TestSendOnClosedAfterBody")
	}
	if ts.Kind != "real" || ts.Location != "realcrash_test.go:26" || ts.Message != "panic: send on closed channel" ||
		!strings.Contains(ts.Failure, "the test process crashed: panic: send on closed channel") ||
		!strings.Contains(ts.Failure, "io.Pipe at realcrash_test.go:15") {
		t.Errorf("TestSendOnClosedAfterBody: kind %q at %q, message %q\n%s", ts.Kind, ts.Location, ts.Message, ts.Failure)
	}
}
