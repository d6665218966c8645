//go:build go1.21

package mem

// OldLoop: before go1.22 a loop variable is one variable for the whole
// loop, which the loop assigns: captured, it is shared.
func OldLoop(done chan<- int, xs []int) {
	for i := 0; i < 3; i++ {
		go func() { done <- i }()
	}
	for _, x := range xs {
		go func() { done <- x }()
	}
}
