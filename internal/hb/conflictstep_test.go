package hb_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// stepMarks feeds tr's events one by one to m, after a Reset, and returns
// what it marked.
func stepMarks(m *hb.ConflictMarker, tr *trace.Trace) []bool {
	m.Reset()
	for i := range tr.Events {
		m.Step(&tr.Events[i])
	}
	return m.Marked()
}

// ConflictMarker marks what ConflictPairs pairs, step by step, on random traces
// (with kills), on contended ones, on traces with the Go-native edges and
// on the recorded traces of package trace, one marker reused for all of them in
// an order that makes later runs smaller and larger than earlier ones.
func TestConflictMarkerMatchesConflicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var m hb.ConflictMarker
	check := func(name string, tr *trace.Trace) {
		t.Helper()
		got := stepMarks(&m, tr)
		if want := marked(tr); !slices.Equal(got, want) {
			t.Fatalf("%s: ConflictMarker = %v, want %v\nevents %v", name, got, want, tr.Events)
		}
		if again := m.Marked(); !slices.Equal(again, got) {
			t.Fatalf("%s: a second Marked changed the marks", name)
		}
	}
	for iter := range 900 {
		switch iter % 3 {
		case 0:
			check("random", randomTrace(rng))
		case 1:
			check("contended", contended(rng, 2+rng.IntN(40), 1+rng.IntN(3), 10+rng.IntN(300)))
		default:
			check("sync", syncTrace(rng, 2+rng.IntN(6), 5+rng.IntN(120)))
		}
	}
	for _, name := range []string{"storage.trace", "faults.trace", "liveness.trace"} {
		f, err := os.Open(hb.Recorded + name)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := trace.Decode(f, name)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		check(name, tr)
	}
	check("empty", &trace.Trace{})
}

// A kill races with its victim's latest step on a resource that another
// task touches, even when that task touches it only after the kill: the
// marker settles kills at Marked, when it knows which resources were shared.
func TestConflictMarkerKillLooksAhead(t *testing.T) {
	tr := &trace.Trace{Tasks: tasks(3), Events: []trace.Event{
		ev(0, trace.KindSpawn, 0, 0, 1, 0),
		ev(0, trace.KindSpawn, 0, 0, 2, 0),
		ev(1, trace.KindYield, 5, 0, -1, 0), // victim: on resource 5, shared only later
		ev(1, trace.KindYield, 6, 0, -1, 0), // victim: private
		ev(0, trace.KindKill, 11, 0, 1, 0),  // kill of task 1
		ev(2, trace.KindYield, 5, 0, -1, 0), // task 2 touches resource 5
	}}
	var m hb.ConflictMarker
	got := stepMarks(&m, tr)
	want := marked(tr)
	if !want[2] || !want[4] {
		t.Fatalf("the fixture no longer has the kill's race: ConflictPairs marks %v", want)
	}
	if !slices.Equal(got, want) {
		t.Errorf("ConflictMarker = %v, want %v", got, want)
	}
}

// syncTrace makes a trace of n tasks, all spawned by task 0, using the
// Go-native primitives on a few objects: channel sends and receives that
// pair by value (some from a blocked sender), closes, locks, read locks,
// loads, stores, swaps, CASes, WaitGroups, Once, Cond and timers. It need
// not be a run a program could have: the marker and ConflictPairs must agree
// on any sequence of events.
func syncTrace(rng *rand.Rand, n, events int) *trace.Trace {
	tr := &trace.Trace{Tasks: tasks(n + 2)}
	for c := int32(1); c < int32(n); c++ {
		tr.Events = append(tr.Events, ev(0, trace.KindSpawn, 0, 0, c, 0))
	}
	var vals []int64
	var next int64 = 1
	kinds := []trace.Kind{
		trace.KindChanSend, trace.KindChanRecv, trace.KindSelect, trace.KindChanClose,
		trace.KindLock, trace.KindUnlock, trace.KindRLock, trace.KindRUnlock, trace.KindTryLock,
		trace.KindLoad, trace.KindStore, trace.KindSwap, trace.KindAdd, trace.KindCAS,
		trace.KindWGAdd, trace.KindWGWait, trace.KindOnce, trace.KindCondSignal, trace.KindCondWait,
		trace.KindTimerFire, trace.KindYield, trace.KindKill,
	}
	for len(tr.Events) < events {
		task := int32(rng.IntN(n))
		k := kinds[rng.IntN(len(kinds))]
		e := ev(task, k, uint32(1+rng.IntN(4)), 0, -1, 0)
		switch k {
		case trace.KindChanSend, trace.KindChanRecv, trace.KindSelect, trace.KindTimerFire:
			switch x := rng.IntN(5); {
			case x == 0:
				e.Val = trace.ValClosed
			case x == 1 || len(vals) == 0:
				e.Val = next
				vals = append(vals, next)
				next++
				if rng.IntN(3) == 0 {
					e.Obj = int32(rng.IntN(n)) // took the value from a blocked sender
				}
			default:
				y := rng.IntN(len(vals))
				e.Val = vals[y]
				vals = slices.Delete(vals, y, y+1)
			}
			if k == trace.KindTimerFire && rng.IntN(2) == 0 {
				e.Obj = int32(n + rng.IntN(2)) // starts a task
			}
		case trace.KindLock, trace.KindRLock, trace.KindTryLock, trace.KindWGWait:
			if rng.IntN(4) == 0 {
				e.Val = trace.ValNone
			}
		case trace.KindLoad:
			e.Flag = trace.FlagRead
		case trace.KindCAS, trace.KindOnce:
			e.Val = int64(rng.IntN(2))
		case trace.KindCondSignal, trace.KindCondWait:
			e.Val = int64(rng.IntN(3))
		case trace.KindKill:
			e.Obj = int32(rng.IntN(n + 2))
		case trace.KindYield:
			e.Flag = trace.Flag(rng.IntN(2)) * trace.FlagRead
		}
		tr.Events = append(tr.Events, e)
		if rng.IntN(12) == 0 {
			tr.Events = append(tr.Events, trace.Event{Task: -1, Obj: -1, Kind: trace.KindClock, Val: int64(len(tr.Events))})
		}
	}
	return tr
}

// BenchmarkConflictMarker marks the contended trace of BenchmarkConflicted
// step by step, reusing the marker.
func BenchmarkConflictMarker(b *testing.B) {
	tr := contended(rand.New(rand.NewPCG(1, 1)), 1025, 1, 6000)
	var m hb.ConflictMarker
	for b.Loop() {
		stepMarks(&m, tr)
	}
}
