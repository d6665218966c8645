package trace

import (
	"slices"
	"testing"
)

// syncConflictPairs is ConflictPairs walking with syncWalker (what ConflictPairs does
// once hb.go uses it).
func syncConflictPairs(tr *Trace) [][2]int {
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

func sev(task int32, kind Kind, res uint32, flag Flag, obj int32, val int64) Event {
	return Event{Task: task, Kind: kind, Res: res, Flag: flag, Obj: obj, Val: val}
}

func TestSyncEdges(t *testing.T) {
	const W, R = 0, FlagRead
	y := KindYield
	tests := []struct {
		name   string
		events []Event
		want   [][2]int
	}{
		{
			name: "a value orders its send before its receive",
			events: []Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, KindChanSend, 9, W, -1, 100),
				sev(1, KindChanRecv, 9, W, 0, 100),
				sev(1, y, 1, W, -1, 0), // after 0: no race
			},
			want: nil, // the receive follows the send, as for actor messages
		},
		{
			name: "a receive from a blocked sender follows the sender's past, and the send's completion follows the receive",
			events: []Event{
				sev(0, y, 1, W, -1, 0),
				sev(1, KindChanRecv, 9, W, 0, 7), // the sender blocked before it
				sev(1, y, 2, W, -1, 0),
				sev(0, KindChanSend, 9, W, -1, 7),
				sev(1, y, 1, W, -1, 0), // after 0
				sev(0, y, 2, W, -1, 0), // after 1, but not after 2
			},
			want: [][2]int{{2, 5}},
		},
		{
			name: "a close orders everything before it before the receives that see it",
			events: []Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, KindChanClose, 9, W, -1, 0),
				sev(1, KindChanRecv, 9, W, -1, ValClosed),
				sev(1, y, 1, W, -1, 0),
			},
			want: nil,
		},
		{
			name: "unlock orders critical sections, but lock acquires still race",
			events: []Event{
				sev(0, KindLock, 5, W, -1, 0),
				sev(0, y, 1, W, -1, 0),
				sev(0, KindUnlock, 5, W, -1, 0),
				sev(1, KindLock, 5, W, -1, 0),
				sev(1, y, 1, W, -1, 0),
				sev(1, KindUnlock, 5, W, -1, 0),
			},
			want: [][2]int{{0, 3}, {2, 3}},
		},
		{
			name: "a failed lock attempt takes no edge",
			events: []Event{
				sev(0, KindLock, 5, W, -1, 0),
				sev(0, KindUnlock, 5, W, -1, 0),
				sev(1, KindLock, 5, R, -1, ValNone),
				sev(1, y, 1, W, -1, 0),
				sev(0, y, 1, W, -1, 0),
			},
			want: [][2]int{{0, 2}, {1, 2}, {3, 4}},
		},
		{
			name: "readers do not order each other; a writer follows them all",
			events: []Event{
				sev(0, KindRLock, 5, R, -1, 0),
				sev(0, y, 1, W, -1, 0),
				sev(0, KindRUnlock, 5, R, -1, 0),
				sev(1, KindRLock, 5, R, -1, 0),
				sev(1, y, 1, W, -1, 0), // races with 1
				sev(1, KindRUnlock, 5, R, -1, 0),
				sev(2, KindLock, 5, W, -1, 0),
				sev(2, y, 1, W, -1, 0), // after both
			},
			want: [][2]int{{1, 4}, {0, 6}, {2, 6}, {3, 6}, {5, 6}},
		},
		{
			name: "a read observes the last write: a flag publishes data, the flag itself races",
			events: []Event{
				sev(0, y, 1, W, -1, 0),         // data
				sev(0, KindStore, 2, W, -1, 0), // flag = 1
				sev(1, KindLoad, 2, R, -1, 0),  // sees it
				sev(1, y, 1, W, -1, 0),         // data: after 0
			},
			want: [][2]int{{1, 2}},
		},
		{
			name: "Done happens before Wait's return; a signal before the wait it woke",
			events: []Event{
				sev(1, y, 1, W, -1, 0),
				sev(1, KindWGAdd, 3, W, -1, -1),
				sev(0, KindWGWait, 3, R, -1, 0),
				sev(0, y, 1, W, -1, 0),
				sev(0, KindCondSignal, 4, W, -1, 77),
				sev(1, KindCondWait, 4, W, -1, 77),
				sev(1, y, 1, W, -1, 0),
			},
			want: [][2]int{{1, 2}}, // Wait still races with Add, as an acquire
		},
		{
			name: "a timer's firing follows its setting and precedes the goroutine it starts",
			events: []Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, KindSpawn, 0, W, 1, 0),
				sev(1, KindTimerFire, 0, W, 2, ValNone),
				sev(2, KindStart, 0, W, -1, 0),
				sev(2, y, 1, W, -1, 0),
			},
			want: nil,
		},
		{
			name: "network writes precede the reads of the same direction",
			events: []Event{
				sev(0, y, 1, W, -1, 0),
				sev(0, KindNetWrite, 6, W, -1, 0),
				sev(1, KindNetRead, 6, W, -1, 0),
				sev(1, y, 1, W, -1, 0),
			},
			want: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := &Trace{Events: tc.events}
			for i := int32(0); i < 3; i++ {
				tr.Tasks = append(tr.Tasks, Task{ID: i, Parent: -1})
			}
			if got := syncConflictPairs(tr); !slices.Equal(got, tc.want) {
				t.Errorf("conflicts %v, want %v", got, tc.want)
			}
		})
	}
}
