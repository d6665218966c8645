package neighbours

import (
	"fmt"
	"sync"
	"testing"

	"example.com/neighbours/assert"
)

// TestAssertPasses checks through the assertion package and passes.
func TestAssertPasses(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, 2, n)
	assert.MustEqual(t, 2, n)
}

// TestAssertFails fails an assertion in every schedule: its failure is
// located at this file's line, not in the assertion package, with its
// message. It prints, so that its output is told from its neighbours'.
func TestAssertFails(t *testing.T) {
	fmt.Println("output of TestAssertFails")
	total := 1
	assert.MustEqual(t, 2, total) // the failure's line
	t.Log("not reached")
}
