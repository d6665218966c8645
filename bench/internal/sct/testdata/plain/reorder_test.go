package sctplain

import (
	"sync"
	"testing"
)

// reorder_N: setter goroutines write a = 1 then b = -1; checker goroutines
// read a then b and expect (0, 0) or (1, -1). A checker that reads between a
// setter's two writes (or whose reads straddle them) sees a mixed pair.
// Fixed: setters and checkers hold a mutex around their accesses.
func reorder(t *testing.T, setters, checkers int, fixed bool) {
	var a, b int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range setters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if fixed {
				mu.Lock()
				defer mu.Unlock()
			}
			a = 1
			b = -1
		}()
	}
	for range checkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if fixed {
				mu.Lock()
			}
			x := a
			y := b
			if fixed {
				mu.Unlock()
			}
			if !(x == 0 && y == 0 || x == 1 && y == -1) {
				t.Errorf("reorder: checker saw a=%d b=%d", x, y)
			}
		}()
	}
	wg.Wait()
}

func TestReorder3(t *testing.T)       { reorder(t, 2, 1, false) }
func TestReorder3Fixed(t *testing.T)  { reorder(t, 2, 1, true) }
func TestReorder4(t *testing.T)       { reorder(t, 3, 1, false) }
func TestReorder4Fixed(t *testing.T)  { reorder(t, 3, 1, true) }
func TestReorder5(t *testing.T)       { reorder(t, 4, 1, false) }
func TestReorder5Fixed(t *testing.T)  { reorder(t, 4, 1, true) }
func TestReorder10(t *testing.T)      { reorder(t, 9, 1, false) }
func TestReorder10Fixed(t *testing.T) { reorder(t, 9, 1, true) }
func TestReorder20(t *testing.T)      { reorder(t, 10, 10, false) }
func TestReorder20Fixed(t *testing.T) { reorder(t, 10, 10, true) }
