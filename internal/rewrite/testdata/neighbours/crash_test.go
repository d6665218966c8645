package neighbours

import (
	"errors"
	"os"
	"os/exec"
	"testing"
)

// TestCrasher runs itself again in a child process that crashes, and
// passes if the child failed: the usual test of a crash. The child must
// not report to the parent's driver nor save traces where the parent does.
func TestCrasher(t *testing.T) {
	if os.Getenv("NEIGHBOURS_CRASH") == "1" {
		Crash()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrasher$")
	cmd.Env = append(os.Environ(), "NEIGHBOURS_CRASH=1")
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Success() {
		t.Fatalf("the child ran with %v, want a failure", err)
	}
}
