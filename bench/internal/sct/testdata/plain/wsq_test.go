package sctplain

import (
	"sync"
	"testing"
)

// WSQ and IWSQ: the owner (the test) pushes 4 items into a queue of
// capacity 2 and pops until it is empty; 2 thieves steal twice each; at the
// end every item must have been taken exactly once.
func wsq(t *testing.T, interlocked, fixed bool) {
	const items = 4
	q := NewStealQueue(2, fixed, interlocked)
	var stolen [2][]int // per thief, read after the Wait
	var wg sync.WaitGroup
	for k := range stolen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				if x, ok := q.Steal(); ok {
					stolen[k] = append(stolen[k], x)
				}
			}
		}()
	}
	for i := 1; i <= items; i++ {
		q.Push(i)
	}
	var taken [items + 1]int
	for {
		x, ok := q.Pop()
		if !ok {
			break
		}
		taken[x]++
	}
	wg.Wait()
	for _, s := range stolen {
		for _, x := range s {
			taken[x]++
		}
	}
	for i := 1; i <= items; i++ {
		if taken[i] != 1 {
			t.Errorf("wsq: item %d taken %d times", i, taken[i])
		}
	}
}

func TestWSQ(t *testing.T)       { wsq(t, false, false) }
func TestWSQFixed(t *testing.T)  { wsq(t, false, true) }
func TestIWSQ(t *testing.T)      { wsq(t, true, false) }
func TestIWSQFixed(t *testing.T) { wsq(t, true, true) }
