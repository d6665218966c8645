package pull

import (
	"iter"
	"slices"
	"testing"
)

func upTo(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// The sequence writes what another goroutine reads, with nothing between
// them: a race go test -race reports, and morpheus must too.
func TestSequenceRace(t *testing.T) {
	shared := 0
	next, stop := iter.Pull(func(yield func(int) bool) {
		shared = 1 // races with the goroutine's read
		yield(shared)
	})
	defer stop()
	done := make(chan int)
	go func() { done <- shared }()
	next()
	<-done
}

// next and yield order the caller's accesses and the sequence's: no race.
func TestOrdered(t *testing.T) {
	shared := 0
	next, stop := iter.Pull(func(yield func(int) bool) {
		for shared < 3 {
			shared++
			if !yield(shared) {
				return
			}
		}
	})
	defer stop()
	for {
		v, ok := next()
		if !ok {
			break
		}
		if v != shared {
			t.Fatalf("next = %d, shared = %d", v, shared)
		}
		shared++
	}
}

// A panic of the sequence is raised again by next, at its line.
func TestPanicAtNext(t *testing.T) {
	next, stop := iter.Pull(func(yield func(int) bool) { panic("sequence failed") })
	defer stop()
	next() // the panic's line
}

// Zip and First read their sequences with iter.Pull and iter.Pull2, and
// stop them: the values are right and nothing leaks.
func TestPullShapes(t *testing.T) {
	var got []int
	for a, b := range Zip(upTo(3), upTo(5)) {
		got = append(got, a*10+b)
	}
	if !slices.Equal(got, []int{0, 11, 22}) {
		t.Errorf("Zip = %v", got)
	}
	k, v, ok := First(func(yield func(string, int) bool) {
		_ = yield("a", 1) && yield("b", 2)
	})
	if k != "a" || v != 1 || !ok {
		t.Errorf("First = %q, %d, %v", k, v, ok)
	}
	next, stop := iter.Pull(upTo(2))
	next()
	stop()
	if _, ok := next(); ok {
		t.Error("next after stop returned a value")
	}
}

// A t.Fatal in the sequence fails the test at its line, as in a goroutine.
func TestFatalInSequence(t *testing.T) {
	next, stop := iter.Pull(func(yield func(int) bool) {
		yield(1)
		t.Fatal("the sequence gave up")
	})
	defer stop()
	next()
	next()
	t.Error("went on past the sequence's t.Fatal")
}
