package rt

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
)

// A test binary that morpheus built starts os/signal's goroutine at its
// initialization (morpheus's interrupt handling, which it then stops), so
// a program that lists its goroutines would find one that go test does not
// start: a TestMain that counts goroutines after m.Run took it for a leak.
// The listing (Stack, NumGoroutine) leaves it out until code of the
// program asks for signals itself: the rewriter turns signal.Notify and
// signal.NotifyContext into SignalNotify and SignalNotifyContext, after
// which the goroutine is the program's too, as under go test.

// programSignals is set once code of the program has asked for signals.
var programSignals atomic.Bool

// SignalNotify stands for os/signal.Notify.
func SignalNotify(c chan<- os.Signal, sig ...os.Signal) {
	programSignals.Store(true)
	signal.Notify(c, sig...)
}

// SignalNotifyContext stands for os/signal.NotifyContext.
func SignalNotifyContext(parent context.Context, sig ...os.Signal) (context.Context, context.CancelFunc) {
	programSignals.Store(true)
	return signal.NotifyContext(parent, sig...)
}

// signalGoroutine reports whether stack g is os/signal's goroutine that
// the program did not ask for.
func signalGoroutine(g string) bool {
	if programSignals.Load() {
		return false
	}
	loop := false
	frames(g, func(fn, _ string) {
		if strings.HasPrefix(fn, "os/signal.loop(") {
			loop = true
		}
	})
	return loop
}
