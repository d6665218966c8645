package ops

import (
	"context"
	"testing"
)

func TestRun(t *testing.T) {
	t.Parallel()
	in, out := make(chan int, 1), make(chan int, 4)
	in <- 1
	close(in)
	var s Server
	t.Run("sub", func(t *testing.T) {
		t.Cleanup(func() {})
	})
	s.Run(context.Background(), in, out, make(Events))
}

func helper(t *testing.T) { t.Helper() }

// tbHelper is a helper of any testing.TB; a deferred t.Helper() is left
// as it is.
func tbHelper(tb testing.TB) {
	tb.Helper()
	defer tb.Helper()
	tb.Logf("from a helper")
}
