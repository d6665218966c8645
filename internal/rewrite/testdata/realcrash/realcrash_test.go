// Package realcrash: tests that run outside control (io.Pipe) and whose
// goroutines crash the test process, as go test runs them.
package realcrash

import (
	"io"
	"testing"
)

// TestSendOnClosedAfterBody: its goroutine sends on a channel it closed
// once the body has returned (the cleanup lets it go, then waits): the
// process dies of the panic after the test's record says it passed, before
// testing's verdict.
func TestSendOnClosedAfterBody(t *testing.T) {
	r, w := io.Pipe()
	proceed := make(chan struct{})
	t.Cleanup(func() {
		close(proceed)
		select {}
	})
	go func() {
		io.WriteString(w, "x")
		<-proceed
		ch := make(chan int)
		close(ch)
		ch <- 1
	}()
	b := make([]byte, 1)
	if _, err := r.Read(b); err != nil {
		t.Fatal(err)
	}
}
