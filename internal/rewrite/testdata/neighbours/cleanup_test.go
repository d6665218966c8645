package neighbours

import (
	"testing"

	"example.com/neighbours/leakcheck"
)

// TestSubtestCleanup's subtest stops its worker in a cleanup, which runs
// when the subtest ends, before the parent's leak check.
func TestSubtestCleanup(t *testing.T) {
	defer leakcheck.VerifyNone(t)
	t.Run("worker", func(t *testing.T) {
		stop := make(chan struct{})
		go func() { <-stop }()
		t.Cleanup(func() { close(stop) })
	})
}
