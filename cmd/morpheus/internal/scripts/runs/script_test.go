package runs

import (
	"testing"

	"github.com/morpheus-go/morpheus/internal/scripttest"
)

var cli scripttest.Command

func TestMain(m *testing.M) { scripttest.MorpheusMain(m, &cli) }

// TestScripts runs the scripts in testdata/script, in cmd/morpheus's
// directory, with the morpheus command built from it.
func TestScripts(t *testing.T) {
	scripttest.RunAll(t, scripttest.Morpheus(t, &cli))
}
