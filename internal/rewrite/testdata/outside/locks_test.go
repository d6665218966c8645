package outside

import (
	"sync"
	"testing"
)

// Locks that package initialization or TestMain took and still hold when
// the tests run: every schedule finds them locked, as go test does.
var (
	gate   sync.Mutex   // initialization closes it, a test's goroutine opens it
	stuck  sync.Mutex   // initialization locks it for good
	config sync.RWMutex // TestMain write-locks it (lockForTests)
)

func init() {
	gate.Lock()
	stuck.Lock()
}

func lockForTests() { config.Lock() }

func TestInitLockReleased(t *testing.T) {
	opened := false
	go func() {
		opened = true
		gate.Unlock()
	}()
	gate.Lock()
	defer gate.Unlock()
	if !opened {
		t.Fatal("took the gate before the goroutine opened it")
	}
}

func TestMainLockReleased(t *testing.T) {
	if config.TryRLock() {
		t.Fatal("read-locked what TestMain holds")
	}
	go config.Unlock()
	config.RLock()
	config.RUnlock()
}

// go test hangs here; morpheus reports the deadlock.
func TestInitLockNeverUnlocked(t *testing.T) {
	stuck.Lock()
}
