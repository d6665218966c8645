package corpus

import (
	"os"
	"testing"

	"github.com/morpheus-go/morpheus/internal/scripttest"
)

var cli scripttest.Command

func TestMain(m *testing.M) {
	code := m.Run()
	cli.Remove()
	os.Exit(code)
}

// TestScripts runs the scripts in testdata/script, in cmd/morpheus's
// directory, with the morpheus command built from it.
func TestScripts(t *testing.T) {
	scripttest.RunAll(t, scripttest.Morpheus(t, &cli))
}
