package neighbours

import "testing"

// TestSubtests leaks a goroutine in one of its subtests: the leak report
// names that subtest.
func TestSubtests(t *testing.T) {
	t.Run("clean", func(t *testing.T) {
		done := make(chan int)
		go func() { done <- 1 }()
		<-done
	})
	t.Run("leaky", func(t *testing.T) {
		stuck := make(chan int)
		go func() { stuck <- 1 }()
	})
}
