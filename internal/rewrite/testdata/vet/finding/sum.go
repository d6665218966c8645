// Package finding has a finding of go test's vet in its tests.
package finding

// Sum adds the values sent on in until it is closed.
func Sum(in <-chan int) int {
	n := 0
	for v := range in {
		n += v
	}
	return n
}
