package neighbours

import (
	"os"
	"runtime"
	"testing"
)

// TestReplayBlocks fails; when NEIGHBOURS_BLOCK is set (as on a machine
// where what it reaches is not there), it first blocks outside control,
// reading a pipe nobody writes, as code on the real network can.
func TestReplayBlocks(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	if os.Getenv("NEIGHBOURS_BLOCK") != "" {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer runtime.KeepAlive(w)
		r.Read(make([]byte, 1)) // blocks outside control
	}
	t.Errorf("fails")
}
