// Package checks holds tests that use morpheus themselves beside plain ones:
// only the plain ones are wrapped in rt.Test.
package checks

// Count sends n values on a new channel from a goroutine.
func Count(n int) chan int {
	ch := make(chan int)
	go func() {
		for i := range n {
			ch <- i
		}
		close(ch)
	}()
	return ch
}
