// Package leak has the commonest goroutine leak: a transaction's watcher
// waits for a context that Commit forgets to cancel.
package leak

import "context"

// Tx is a transaction with a goroutine that ends when its context is done.
type Tx struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Begin starts a transaction and its watcher.
func Begin(parent context.Context) *Tx {
	ctx, cancel := context.WithCancel(parent)
	tx := &Tx{cancel: cancel, done: make(chan struct{})}
	go tx.awaitDone(ctx)
	return tx
}

func (tx *Tx) awaitDone(ctx context.Context) {
	<-ctx.Done()
	close(tx.done)
}

// Commit ends the transaction. The bug: it does not cancel the context, so
// the watcher waits forever.
func (tx *Tx) Commit() error { return nil }

// Rollback ends the transaction and waits for its watcher.
func (tx *Tx) Rollback() {
	tx.cancel()
	<-tx.done
}
