package outside

import (
	"context"
	"os"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestMain uses channels and goroutines before m.Run, outside control.
func TestMain(m *testing.M) {
	if v := <-Ready; v != 1 {
		panic("init's value lost")
	}
	results := make(chan int)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- i
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	sum := 0
	for v := range results {
		sum += v
	}
	if sum != 3 {
		panic("TestMain's goroutines lost a value")
	}
	lockForTests()
	os.Exit(m.Run())
}

// Stores the test drops are garbage when it ends: their finalizers stop
// the sweepers, which are no leak. The collections in between do not run
// them outside control.
func TestFinalizer(t *testing.T) {
	for i := range 3 {
		s := NewStore(time.Second)
		s.Set("k", i)
		if v, ok := s.Get("k"); !ok || v != i {
			t.Fatalf("got %d, %v", v, ok)
		}
	}
	runtime.GC()
	runtime.GC()
}

// A cleanup runs when the test ends, unless stopped.
func TestCleanup(t *testing.T) {
	closed := make(chan int, 2)
	_, c1 := Open(1, closed)
	_, c2 := Open(2, closed)
	c1.Stop()
	_ = c2
	go func() {
		if id := <-closed; id != 2 {
			panic("the stopped cleanup ran")
		}
	}()
}

// A test whose parameter is blank is run under control.
func TestBlank(_ *testing.T) {
	ch := make(chan int, 1)
	go func() { ch <- 1 }()
	<-ch
}

// So is one whose parameter has no name.
func TestUnnamed(*testing.T) {
	var mu sync.Mutex
	mu.Lock()
	go mu.Unlock()
	mu.Lock()
}

// A goroutine that calls runtime.Goexit ends, its deferred calls run, and
// the test goes on.
func TestGoexit(t *testing.T) {
	done := make(chan int)
	go func() {
		defer close(done)
		runtime.Goexit()
		t.Error("runtime.Goexit returned")
	}()
	<-done
}

// fataler is an assertion helper of the test's own: t.FailNow through it
// is the testing package's, which calls runtime.Goexit.
type fataler interface{ FailNow() }

// Fails: t.FailNow on a goroutine, as go test fails it.
func TestGoexitFailNow(t *testing.T) {
	var f fataler = t
	done := make(chan int)
	go func() {
		defer close(done)
		f.FailNow()
	}()
	<-done
}

// Fails: a bare runtime.Goexit ends the test's body, which go test fails.
func TestGoexitMain(t *testing.T) {
	defer t.Log("deferred")
	runtime.Goexit()
}

// A synctest bubble is the schedule: its clock starts at midnight UTC
// 2000-01-01, moves when every goroutine is blocked, and has no limit a
// test reaches; Wait returns once the others are.
func TestSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		if want := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC); !start.Equal(want) {
			t.Errorf("bubble starts at %v, want %v", start, want)
		}
		got := make(chan time.Duration, 1)
		go func() {
			time.Sleep(time.Second)
			got <- time.Since(start)
		}()
		time.Sleep(2 * time.Second)
		select {
		case d := <-got:
			if d != time.Second {
				t.Errorf("the sleeper woke after %v", d)
			}
		default:
			t.Error("the sleeper has not woken after 2s")
		}
		state := 0
		ch := make(chan int)
		go func() {
			state = 1
			<-ch
			state = 2
		}()
		synctest.Wait()
		if state != 1 {
			t.Errorf("after Wait: state %d, want 1", state)
		}
		ch <- 1
		synctest.Wait()
		if state != 2 {
			t.Errorf("after the second Wait: state %d, want 2", state)
		}
		time.Sleep(2 * time.Hour) // instant, as in a bubble
		if d := time.Since(start); d != 2*time.Hour+2*time.Second {
			t.Errorf("after sleeping 2h: %v", d)
		}
	})
}

// context.AfterFunc's callback runs under control once the context is
// cancelled.
func TestAfterFunc(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan bool)
	context.AfterFunc(ctx, func() { ran <- true })
	go cancel()
	<-ran
}

// The flush daemon package initialization started takes the logger's lock
// while the test logs: nothing schedules it, and it fails no schedule.
func TestDaemonLock(t *testing.T) {
	start := Flushes()
	for Flushes() < start+2 {
		Log()
		runtime.Gosched()
	}
}
