package outside

import (
	"sync"
	"sync/atomic"
	"time"
)

// A logger whose flush daemon package initialization starts, as glog's: the
// daemon and the code that logs take the same lock.
var logger struct {
	mu      sync.Mutex
	lines   int
	flushes atomic.Int64
}

func init() { go flushDaemon() }

func flushDaemon() {
	for range time.NewTicker(100 * time.Microsecond).C {
		logger.mu.Lock()
		logger.flushes.Add(1)
		logger.mu.Unlock()
	}
}

// Log writes a line.
func Log() {
	logger.mu.Lock()
	logger.lines++
	logger.mu.Unlock()
}

// Flushes is how many times the daemon has flushed.
func Flushes() int64 { return logger.flushes.Load() }
