// Package signal asks for signals with os/signal's Notify and
// NotifyContext, which the rewriter redirects to package rt (the program's
// own os/signal goroutine is then shown in its goroutine listings), and
// uses Stop, which stays.
package signal

import (
	"context"
	"os"
	"os/signal"
)

func watch(ctx context.Context) (context.Context, context.CancelFunc) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	signal.Stop(c)
	return signal.NotifyContext(ctx, os.Interrupt)
}
