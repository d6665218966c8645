package record

import (
	"reflect"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// recordSteps appends n events to r as a run would: every seventh a clock
// event, every fifth step a choice whose value is set after Append (as
// Run.Choose does), the other steps filled into a Slot where there is one.
func recordSteps(r *Recorder, n int) {
	for i := range n {
		switch {
		case i%7 == 3:
			r.Append(trace.Event{Task: -1, Obj: -1, Kind: trace.KindClock, Val: int64(i)})
		case i%5 == 1:
			at := r.Append(trace.Event{Task: int32(i % 11), Obj: -1, Kind: trace.KindChoose, Loc: uint64(i)})
			r.At(at).Val = int64(i % 3)
		default: // as decide records a step: into a Slot when there is one
			task := int32(i % 13)
			if i%101 == 0 { // an id too wide for a schedule entry beside its kind
				task = wideTask + int32(i%3)
			}
			e := trace.Event{Task: task, Obj: int32(i % 3), Res: uint32(i % 4), Kind: trace.KindSend, Val: int64(i), Loc: uint64(i)}
			if p := r.Slot(); p != nil {
				*p = e
			} else {
				r.Append(e)
			}
		}
	}
}

// steps is what a replay follows of events: each step's task and kind,
// and a choice's value.
func steps(evs []trace.Event) []trace.Event {
	var out []trace.Event
	for _, e := range evs {
		if e.IsStep() {
			s := trace.Event{Task: e.Task, Obj: -1, Kind: e.Kind}
			if e.Kind == trace.KindChoose {
				s.Val = e.Val
			}
			out = append(out, s)
		}
	}
	return out
}

func TestRecorderWindow(t *testing.T) {
	for _, n := range []int{0, 1, chunkSize, keepChunks * chunkSize, keepChunks*chunkSize + 1, 200_003, 3 * keepChunks * chunkSize} {
		var full, win Recorder
		win.Window(true)
		recordSteps(&full, n)
		recordSteps(&win, n)
		all := full.Events()
		if full.Wrapped() || full.Len() != n || len(all) != n {
			t.Fatalf("n=%d: a recorder without a window wrapped or lost events (%d held)", n, len(all))
		}
		wraps := n > keepChunks*chunkSize
		if win.Wrapped() != wraps || win.Len() != n {
			t.Fatalf("n=%d: wrapped %v, want %v", n, win.Wrapped(), wraps)
		}
		held := win.Events()
		if want := n; wraps {
			want = min((n-1)%chunkSize+1+(ringChunks-1)*chunkSize, n-keepChunks*chunkSize)
			if len(held) != want {
				t.Fatalf("n=%d: %d events held, want %d", n, len(held), want)
			}
		} else if len(held) != want {
			t.Fatalf("n=%d: %d events held, want all %d", n, len(held), want)
		}
		from := n - len(held)
		if !reflect.DeepEqual(held, all[from:]) {
			t.Fatalf("n=%d: the events held differ from the latest recorded", n)
		}
		for _, i := range []int{-1, 0, from - 1, from, n - 1, n} {
			if got, want := win.Held(i), i >= from && i < n; got != want {
				t.Errorf("n=%d: Held(%d) = %v, want %v", n, i, got, want)
			}
			if i >= from && i >= 0 && i < n && *win.At(i) != all[i] {
				t.Errorf("n=%d: At(%d) differs", n, i)
			}
		}
		if got, want := win.Schedule(), steps(all); !reflect.DeepEqual(got, want) && len(want) > 0 {
			t.Fatalf("n=%d: the schedule differs from the recorded steps (%d steps, want %d)", n, len(got), len(want))
		}
	}
}

// A recorder reused after a wrapped iteration records the next one in
// full unless told it may drop events again, and its schedule starts over.
func TestRecorderWindowReset(t *testing.T) {
	var r Recorder
	r.Window(true)
	recordSteps(&r, 2*keepChunks*chunkSize)
	if !r.Wrapped() {
		t.Fatal("did not wrap")
	}
	r.Reset()
	recordSteps(&r, 2*keepChunks*chunkSize)
	if r.Wrapped() {
		t.Fatal("wrapped after Reset without Window")
	}
	var fresh Recorder
	recordSteps(&fresh, 2*keepChunks*chunkSize)
	if !reflect.DeepEqual(r.Events(), fresh.Events()) {
		t.Fatal("the second iteration's events differ from a fresh recorder's")
	}
	r.Reset()
	r.Window(true)
	recordSteps(&r, 3*keepChunks*chunkSize+5)
	if got, want := r.Schedule(), steps(fresh.Events()); len(got) <= len(want) || !reflect.DeepEqual(got[:len(want)], want) {
		t.Fatal("the schedule after Reset does not start with the iteration's first steps")
	}
}

// Task ids too wide for a schedule entry take two entries; one that
// straddles a chunk of the schedule reads back whole.
func TestRecorderScheduleWideTasks(t *testing.T) {
	var r Recorder
	r.Window(true)
	n := 3 * keepChunks * chunkSize
	want := make([]trace.Event, 0, n)
	for i := range n {
		task := int32(i % 7) // the first step narrow: the wide ones' pairs then straddle each chunk boundary
		if i > 0 {
			task = wideTask + int32(i%5)
		}
		e := trace.Event{Task: task, Obj: -1, Kind: trace.KindSend}
		r.Append(e)
		want = append(want, e)
	}
	if !r.Wrapped() {
		t.Fatal("did not wrap")
	}
	if got := r.Schedule(); !reflect.DeepEqual(got, want) {
		t.Fatalf("schedule of %d steps differs from the recorded one (%d steps)", len(want), len(got))
	}
}
