package clock

import (
	"testing"
	"time"
)

func TestUptime(t *testing.T) {
	if d := Uptime(); d < 0 {
		t.Fatalf("uptime %v", d)
	}
}

func TestWakesAfterDeadline(t *testing.T) {
	start := time.Now()
	time.Sleep(10 * time.Millisecond)
	if !time.Now().After(start.Add(10 * time.Millisecond)) {
		t.Fatalf("woke at %v, not after %v", time.Now(), start.Add(10*time.Millisecond))
	}
}

func TestPollingStops(t *testing.T) {
	s := NewStopper()
	s.StopAfter(10 * time.Millisecond)
}

func TestSpinWhileSleeping(t *testing.T) {
	done := make(chan struct{})
	go func() {
		time.Sleep(time.Second)
		close(done)
	}()
	Spin(2 * time.Millisecond)
	<-done
}

func TestLongQueue(t *testing.T) {
	const n = 100_000
	if got := Sum(n); got != n*(n+1)/2 {
		t.Fatalf("sum %d", got)
	}
}

func TestLeaseExpires(t *testing.T) {
	l := Grant(time.Second)
	done := make(chan int)
	go func() { done <- l.WaitExpired(50 * time.Millisecond) }()
	if n := <-done; n == 0 {
		t.Fatal("expired at once")
	}
}
