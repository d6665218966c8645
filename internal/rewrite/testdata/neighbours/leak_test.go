package neighbours

import (
	"sync"
	"testing"

	"example.com/neighbours/leakcheck"
)

// TestNoLeak's goroutines all end before the check: it passes.
func TestNoLeak(t *testing.T) {
	defer leakcheck.VerifyNone(t)
	var wg sync.WaitGroup
	results := make(chan int, 4)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- i
		}()
	}
	wg.Wait()
	go func() { results <- 3 }() // ends on its own, after the test's last line
}

// TestLeakFound leaves a goroutine waiting on a channel nobody closes:
// the check finds it.
func TestLeakFound(t *testing.T) {
	defer leakcheck.VerifyNone(t)
	block := make(chan struct{})
	go func() {
		<-block
	}()
}
