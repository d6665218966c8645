package hb

import (
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// syncConflictPairs is ConflictPairs walking with syncWalker (what ConflictPairs does
// once hb.go uses it).
func syncConflictPairs(tr *trace.Trace) [][2]int {
	var w syncWalker
	w.init(tr)
	r := hbRaces{res: map[uint32]int32{}}
	var out [][2]int
	var found []int
	for j := range tr.Events {
		vc := w.step(tr, j)
		if vc == nil {
			continue
		}
		e := &tr.Events[j]
		if e.Res == 0 {
			continue
		}
		found = r.access(found[:0], j, e, w.raceClock(vc))
		slices.Sort(found)
		for _, i := range found {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

func sev(task int32, kind trace.Kind, res uint32, flag trace.Flag, obj int32, val int64) trace.Event {
	return trace.Event{Task: task, Kind: kind, Res: res, Flag: flag, Obj: obj, Val: val}
}

func TestSyncEdges(t *testing.T) {
	const W, R = 0, trace.FlagRead
	y := trace.KindYield
	tests := []struct {
		name   string
		events []trace.Event
		want   [][2]int
	}{
		{
			name: "a value orders its send before its receive",
			events: []trace.Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, trace.KindChanSend, 9, W, -1, 100),
				sev(1, trace.KindChanRecv, 9, W, 0, 100),
				sev(1, y, 1, W, -1, 0), // after 0: no race
			},
			want: nil, // the receive follows the send, as for actor messages
		},
		{
			name: "a receive from a blocked sender follows the sender's past, and the send's completion follows the receive",
			events: []trace.Event{
				sev(0, y, 1, W, -1, 0),
				sev(1, trace.KindChanRecv, 9, W, 0, 7), // the sender blocked before it
				sev(1, y, 2, W, -1, 0),
				sev(0, trace.KindChanSend, 9, W, -1, 7),
				sev(1, y, 1, W, -1, 0), // after 0
				sev(0, y, 2, W, -1, 0), // after 1, but not after 2
			},
			want: [][2]int{{2, 5}},
		},
		{
			name: "a close orders everything before it before the receives that see it",
			events: []trace.Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, trace.KindChanClose, 9, W, -1, 0),
				sev(1, trace.KindChanRecv, 9, W, -1, trace.ValClosed),
				sev(1, y, 1, W, -1, 0),
			},
			want: nil,
		},
		{
			name: "unlock orders critical sections, but lock acquires still race",
			events: []trace.Event{
				sev(0, trace.KindLock, 5, W, -1, 0),
				sev(0, y, 1, W, -1, 0),
				sev(0, trace.KindUnlock, 5, W, -1, 0),
				sev(1, trace.KindLock, 5, W, -1, 0),
				sev(1, y, 1, W, -1, 0),
				sev(1, trace.KindUnlock, 5, W, -1, 0),
			},
			want: [][2]int{{0, 3}, {2, 3}},
		},
		{
			name: "a failed lock attempt takes no edge",
			events: []trace.Event{
				sev(0, trace.KindLock, 5, W, -1, 0),
				sev(0, trace.KindUnlock, 5, W, -1, 0),
				sev(1, trace.KindLock, 5, R, -1, trace.ValNone),
				sev(1, y, 1, W, -1, 0),
				sev(0, y, 1, W, -1, 0),
			},
			want: [][2]int{{0, 2}, {1, 2}, {3, 4}},
		},
		{
			name: "readers do not order each other; a writer follows them all",
			events: []trace.Event{
				sev(0, trace.KindRLock, 5, R, -1, 0),
				sev(0, y, 1, W, -1, 0),
				sev(0, trace.KindRUnlock, 5, R, -1, 0),
				sev(1, trace.KindRLock, 5, R, -1, 0),
				sev(1, y, 1, W, -1, 0), // races with 1
				sev(1, trace.KindRUnlock, 5, R, -1, 0),
				sev(2, trace.KindLock, 5, W, -1, 0),
				sev(2, y, 1, W, -1, 0), // after both
			},
			want: [][2]int{{1, 4}, {0, 6}, {2, 6}, {3, 6}, {5, 6}},
		},
		{
			name: "a read observes the last write: a flag publishes data, the flag itself races",
			events: []trace.Event{
				sev(0, y, 1, W, -1, 0),               // data
				sev(0, trace.KindStore, 2, W, -1, 0), // flag = 1
				sev(1, trace.KindLoad, 2, R, -1, 0),  // sees it
				sev(1, y, 1, W, -1, 0),               // data: after 0
			},
			want: [][2]int{{1, 2}},
		},
		{
			name: "Done happens before Wait's return; a signal before the wait it woke",
			events: []trace.Event{
				sev(1, y, 1, W, -1, 0),
				sev(1, trace.KindWGAdd, 3, W, -1, -1),
				sev(0, trace.KindWGWait, 3, R, -1, 0),
				sev(0, y, 1, W, -1, 0),
				sev(0, trace.KindCondSignal, 4, W, -1, 77),
				sev(1, trace.KindCondWait, 4, W, -1, 77),
				sev(1, y, 1, W, -1, 0),
			},
			want: [][2]int{{1, 2}}, // Wait still races with Add, as an acquire
		},
		{
			name: "a timer's firing follows its setting and precedes the goroutine it starts",
			events: []trace.Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, trace.KindSpawn, 0, W, 1, 0),
				sev(1, trace.KindTimerFire, 0, W, 2, trace.ValNone),
				sev(2, trace.KindStart, 0, W, -1, 0),
				sev(2, y, 1, W, -1, 0),
			},
			want: nil,
		},
		{
			name: "network writes precede the reads of the same direction",
			events: []trace.Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, trace.KindNetWrite, 6, W, -1, 0),
				sev(1, trace.KindNetRead, 6, W, -1, 0),
				sev(1, y, 1, W, -1, 0),
			},
			want: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := &trace.Trace{Events: tc.events}
			for i := int32(0); i < 3; i++ {
				tr.Tasks = append(tr.Tasks, trace.Task{ID: i, Parent: -1})
			}
			if got := syncConflictPairs(tr); !slices.Equal(got, tc.want) {
				t.Errorf("conflicts %v, want %v", got, tc.want)
			}
		})
	}
}
