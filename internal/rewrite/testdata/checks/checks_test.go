package checks

import (
	"testing"

	"github.com/morpheus-go/morpheus"
)

func TestPlain(t *testing.T) {
	ch := make(chan int, 1)
	close(ch)
	ch <- 1 // the failure's location
}

func TestCheck(t *testing.T) {
	morpheus.Check(t, func(e *morpheus.Env) {
		x := 0
		done := make(chan bool)
		go func() { x++; done <- true }()
		<-done
		x++
		e.Assert(x == 2, "x = %d", x)
	})
}

func TestCheckRace(t *testing.T) {
	morpheus.Check(t, func(e *morpheus.Env) {
		x := 0
		done := make(chan bool)
		go func() {
			v := x
			e.Yield()
			x = v + 1
			done <- true
		}()
		v := x
		e.Yield()
		x = v + 1
		<-done
		e.Assert(x == 2, "lost update: x = %d", x) // (or a data race on x first)
	})
}
