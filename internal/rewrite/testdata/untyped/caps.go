// Package untyped makes channels and selects with the shapes of untyped
// constants, untyped nil and named types that Go accepts where the
// rewritten calls are generic: every test passes under go test and under
// control.
package untyped

// Sizes that make accepts: constants of any kind representable as an int.
const (
	floatSize       = 1e3 // an untyped float constant
	runeSize        = 'a' // an untyped rune constant
	typedSize  size = 4   // a constant of a named integer type
	uint64Size      = uint64(2)
)

type size int

// Caps makes channels of each size shape and returns their capacities.
func Caps(shift uint) []int {
	var arr [5]int
	a := make(chan int, floatSize)
	b := make(chan string, runeSize)
	c := make(chan error, typedSize)
	d := make(chan int, uint64Size)
	e := make(chan int, 1.0<<shift) // a shift of an untyped float constant
	f := make(chan int, len(arr))   // a constant len
	g := make(chan<- int, 2.0)      // a send-only channel
	h := make(<-chan int)           // a receive-only one
	return []int{cap(a), cap(b), cap(c), cap(d), cap(e), cap(f), cap(g), cap(h)}
}
