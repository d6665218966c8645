package report

import (
	"os"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
)

// TestMain runs TestBrowser's reports, each in a Chromium of its own, at
// once (proctest: a test that waits for a browser is not bound by the
// cores).
func TestMain(m *testing.M) {
	proctest.Main()
	os.Exit(m.Run())
}
