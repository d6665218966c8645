package csync_test

import (
	"fmt"
	"testing"

	"github.com/morpheus-go/morpheus/csync"
)

// Primitives called outside a controlled task panic with a message that
// says what to do, instead of blocking for real.
func TestOutsideMorpheus(t *testing.T) {
	var mu csync.Mutex
	c := csync.Make[int](1) // making a channel is fine anywhere
	tests := map[string]func(){
		"Mutex.Lock": mu.Lock,
		"Chan.Send":  func() { c.Send(1) },
		"Go":         func() { csync.Go(func() {}) },
		"Now":        func() { csync.Now() },
	}
	for what, f := range tests {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			f()
			return ""
		}()
		want := "csync: " + what + " called outside a task morpheus controls; start goroutines with csync.Go"
		if msg != want {
			t.Errorf("%s: panic %q, want %q", what, msg, want)
		}
	}
}
