package leak

import (
	"context"
	"testing"
	"time"
)

// TestCommit leaks the watcher: Commit never cancels its context.
func TestCommit(t *testing.T) {
	tx := Begin(context.Background())
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestRollback does not: Rollback cancels and waits.
func TestRollback(t *testing.T) {
	Begin(context.Background()).Rollback()
}

// TestSleeper does not either: the goroutine ends after its sleep, which
// the virtual clock reaches once the test has returned.
func TestSleeper(t *testing.T) {
	go func() { time.Sleep(time.Second) }()
}
