package driver

import (
	"os"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
)

// TestMain runs the tests that build and run modules (the Prepare reuse
// tests, the cached outcomes) 8 at a time, and compiles rt once for their
// builds (proctest). The explorations of the rewriter's testdata modules
// are a test binary of their own, package shapes.
func TestMain(m *testing.M) {
	proctest.Main()
	if !testing.Short() {
		proctest.StartRuntime()
	}
	os.Exit(m.Run())
}
