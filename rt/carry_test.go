package rt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// Values that code outside control (package initialization filling a
// semaphore's tokens) left in a channel's buffer are in its buffer for the
// schedule that uses it next, behind the values an earlier schedule left;
// values that do not fit wait in the native channel for a later schedule.
func TestChannelFilledOutside(t *testing.T) {
	tokens := rt.Make[chan int](2)
	rt.Send(tokens, 1)
	rt.Send(tokens, 2)
	if f := explore(t, 4, func() {
		if n := rt.Len(tokens); n != 2 {
			panic(fmt.Sprintf("%d tokens in the buffer, want 2", n))
		}
		v := rt.Recv(tokens)
		rt.Go(func() { rt.Send(tokens, v) })
		rt.Send(tokens, rt.Recv(tokens))
		rt.Recv(tokens)
		rt.Send(tokens, v)
	}); f != nil {
		t.Fatal(f.Report())
	}

	ch := rt.Make[chan int](2)
	rt.Send(ch, 1)
	order := []int{}
	if f := explore(t, 1, func() { rt.Send(ch, 2) }); f != nil {
		t.Fatal(f.Report())
	}
	rt.Send(ch, 3) // the buffer is full: waits in the native channel
	if f := explore(t, 2, func() { order = append(order, rt.Recv(ch)) }); f != nil {
		t.Fatal(f.Report())
	}
	if f := explore(t, 1, func() {
		order = append(order, rt.Recv(ch))
		if n := rt.Len(ch); n != 0 {
			panic(fmt.Sprintf("%d values left, want 0", n))
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
	if len(order) != 3 || order[0] != 1 || order[1] != 2 || order[2] != 3 {
		t.Fatalf("received %v, want [1 2 3]", order)
	}
}

// A Once whose f returned outside control (a package-level variable's
// initializer that calls a lazy getter) is done for the schedules, and one
// whose f returned in a schedule is done for code outside control after it:
// f runs once in the process, as under go test.
func TestOnceAcrossWorlds(t *testing.T) {
	var init, lazy csync.Once
	runs := 0
	init.Do(func() { runs++ })
	if f := explore(t, 3, func() {
		init.Do(func() { runs++ })
		lazy.Do(func() { runs++ })
	}); f != nil {
		t.Fatal(f.Report())
	}
	lazy.Do(func() { runs++ })
	if runs != 2 {
		t.Fatalf("the two fs ran %d times, want 2", runs)
	}
}

// Locks that package initialization took and still holds (it runs on the
// program's main goroutine, as TestMain does), for TestLocksHeldByInit.
var (
	gateHeld  = lockedAtInit()
	stuckHeld = lockedAtInit()
	rwHeld    = func() *csync.RWMutex { m := new(csync.RWMutex); m.Lock(); return m }()
	rwRead    = func() *csync.RWMutex { m := new(csync.RWMutex); m.RLock(); return m }()
)

func lockedAtInit() *csync.Mutex {
	m := new(csync.Mutex)
	m.Lock()
	return m
}

// A lock that initialization left locked is locked for every schedule, as
// go test finds it: a Lock waits for the goroutine of the test that unlocks
// it (in every schedule: an Unlock releases it for its own schedule only),
// and one that nobody unlocks is a deadlock that says who holds it. Locks
// the test's own goroutine (not main) took outside control start released.
func TestLocksHeldByInit(t *testing.T) {
	if f := explore(t, 20, func() {
		opened := false
		rt.Go(func() {
			opened = true
			gateHeld.Unlock()
		})
		gateHeld.Lock()
		if !opened {
			panic("locked the gate before the goroutine opened it")
		}
		gateHeld.Unlock()

		if rwHeld.TryRLock() {
			panic("read-locked a mutex initialization write-locks")
		}
		rt.Go(rwHeld.Unlock)
		rwHeld.RLock()
		//lint:ignore SA2001 the lock is the wait for the goroutine's unlock
		rwHeld.RUnlock()

		rwRead.RLock()
		//lint:ignore SA2001 readers share: the lock does not wait
		rwRead.RUnlock()
		if rwRead.TryLock() {
			panic("write-locked a mutex initialization read-locks")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}

	f := explore(t, 1, func() { stuckHeld.Lock() })
	if f == nil || f.Kind != "deadlock" || !strings.Contains(f.Message, "locked outside control by package initialization or TestMain") {
		t.Fatalf("a lock initialization never unlocks: %v, want a deadlock that says who holds it", f)
	}

	var mine csync.Mutex
	mine.Lock() // by the test's goroutine, outside control: not carried
	if f := explore(t, 2, func() {
		mine.Lock()
		//lint:ignore SA2001 the lock does not wait for the test's goroutine
		mine.Unlock()
	}); f != nil {
		t.Fatal(f.Report())
	}
	mine.Unlock()
}
