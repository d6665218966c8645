package core

import (
	"strconv"
	"testing"
)

// TimerName gives "timer:" and the parent's name, from its cache or built,
// and the cache stops growing at its bound.
func TestTimerName(t *testing.T) {
	var r Run
	for round := range 2 {
		for _, name := range []string{"main", "g1", "client#2@n1"} {
			if got := r.TimerName(&Task{Name: name}); got != "timer:"+name {
				t.Fatalf("round %d: TimerName(%q) = %q", round, name, got)
			}
		}
	}
	for i := range maxTimerNames + 10 {
		name := "p" + strconv.Itoa(i)
		if got := r.TimerName(&Task{Name: name}); got != "timer:"+name {
			t.Fatalf("TimerName(%q) = %q", name, got)
		}
	}
	if len(r.timerNames) != maxTimerNames {
		t.Fatalf("%d names kept, want the bound %d", len(r.timerNames), maxTimerNames)
	}
}
