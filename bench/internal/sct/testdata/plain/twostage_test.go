package sctplain

import (
	"sync"
	"testing"
)

// twostage: a writer sets d1 = 1 under lock l1, then d2 = d1 + 1 under lock
// l2; a reader, if d1 != 0, reads d1 under l1, then d2 under l2, and expects
// d2 == d1 + 1. A reader that runs entirely between a writer's two stages
// sees d2 == 0. twostage_100 has 99 writers. Fixed: both hold l1 across both
// stages.
func twostage(t *testing.T, writers int, fixed bool) {
	var d1, d2 int
	var l1, l2 sync.Mutex
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l1.Lock()
			d1 = 1
			if !fixed {
				l1.Unlock()
			}
			l2.Lock()
			d2 = d1 + 1
			l2.Unlock()
			if fixed {
				l1.Unlock()
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		l1.Lock()
		if d1 == 0 {
			l1.Unlock()
			return
		}
		t1 := d1
		if !fixed {
			l1.Unlock()
		}
		l2.Lock()
		t2 := d2
		l2.Unlock()
		if fixed {
			l1.Unlock()
		}
		if t2 != t1+1 {
			t.Errorf("twostage: reader saw d1=%d d2=%d", t1, t2)
		}
	}()
	wg.Wait()
}

func TestTwostage(t *testing.T)         { twostage(t, 1, false) }
func TestTwostageFixed(t *testing.T)    { twostage(t, 1, true) }
func TestTwostage100(t *testing.T)      { twostage(t, 99, false) }
func TestTwostage100Fixed(t *testing.T) { twostage(t, 99, true) }
