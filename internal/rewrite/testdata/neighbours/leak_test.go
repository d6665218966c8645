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

// TestLeakFound leaves a goroutine waiting on a channel nobody closes
// before the check, which finds it; a cleanup, which runs after the check,
// lets it go, so that it does not outlive the test.
func TestLeakFound(t *testing.T) {
	defer leakcheck.VerifyNone(t)
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	go func() {
		<-block
	}()
}

// parked waits on ch, as a library's worker that outlives the test does.
func parked(ch chan int) { <-ch }

// TestLeakIgnored leaves a parked worker its check is told to ignore: the
// test's word goes, it passes.
func TestLeakIgnored(t *testing.T) {
	defer leakcheck.VerifyNone(t, "example.com/neighbours.parked")
	go parked(make(chan int))
}

// TestLeakAfterCheck checks too early: the goroutine it starts after its
// check leaks, and morpheus's own leak check reports it.
func TestLeakAfterCheck(t *testing.T) {
	go parked(make(chan int))
	leakcheck.VerifyNone(t, "example.com/neighbours.parked")
	block := make(chan struct{})
	go func() { <-block }()
}
