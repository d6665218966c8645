package hb_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// ev builds a step event.
func ev(task int32, kind trace.Kind, res uint32, flag trace.Flag, obj int32, val int64) trace.Event {
	return trace.Event{Task: task, Kind: kind, Res: res, Flag: flag, Obj: obj, Val: val}
}

func tasks(n int) []trace.Task {
	ts := make([]trace.Task, n)
	for i := range ts {
		ts[i] = trace.Task{ID: int32(i), Parent: -1, Key: uint64(100 + i)}
	}
	return ts
}

func conflicts(tr *trace.Trace) [][2]int {
	var out [][2]int
	hb.ConflictPairs(tr, func(i, j int) { out = append(out, [2]int{i, j}) })
	return out
}

func TestConflictsHandBuilt(t *testing.T) {
	const W, R = 0, trace.FlagRead
	y := trace.KindYield
	tests := []struct {
		name   string
		tasks  int
		events []trace.Event
		want   [][2]int
	}{
		{
			name:  "unordered writes race",
			tasks: 2,
			events: []trace.Event{
				ev(0, y, 1, W, -1, 0),
				ev(1, y, 1, W, -1, 0),
			},
			want: [][2]int{{0, 1}},
		},
		{
			name:  "reads do not race with reads, only with writes",
			tasks: 3,
			events: []trace.Event{
				ev(0, y, 1, R, -1, 0),
				ev(1, y, 1, R, -1, 0),
				ev(2, y, 1, W, -1, 0),
			},
			want: [][2]int{{0, 2}, {1, 2}},
		},
		{
			name:  "same task is program order; other resources and resource 0 never race",
			tasks: 2,
			events: []trace.Event{
				ev(0, y, 1, W, -1, 0),
				ev(0, y, 1, W, -1, 0),
				ev(1, y, 2, W, -1, 0),
				ev(1, y, 0, W, -1, 0),
				ev(0, y, 0, W, -1, 0),
			},
			want: nil,
		},
		{
			name:  "spawn orders the parent's past before the child",
			tasks: 2,
			events: []trace.Event{
				ev(0, y, 1, W, -1, 0),              // 0: parent writes
				ev(0, trace.KindSpawn, 0, 0, 1, 0), // 1: spawn child 1
				ev(1, trace.KindStart, 0, 0, -1, 0),
				ev(1, y, 1, W, -1, 0), // 3: child writes: after 0
				ev(0, y, 1, W, -1, 0), // 4: parent writes after the spawn: races with 3
			},
			want: [][2]int{{3, 4}},
		},
		{
			name:  "send happens before its receive",
			tasks: 3,
			events: []trace.Event{
				ev(0, y, 5, W, -1, 0),             // 0
				ev(0, trace.KindSend, 9, 0, 1, 7), // 1: send m7 to task 1 (mailbox 9)
				ev(2, trace.KindSend, 9, 0, 1, 8), // 2: send m8 to task 1: races with 1
				ev(1, trace.KindRecv, 9, 0, 0, 7), // 3: receive m7: after 1, races with 2
				ev(1, y, 5, W, -1, 0),             // 4: after 0 through m7
				ev(1, trace.KindRecv, 9, 0, 2, 8), // 5: receive m8
				ev(2, y, 5, W, -1, 0),             // 6: races with 0 and 4
			},
			want: [][2]int{{1, 2}, {2, 3}, {0, 6}, {4, 6}},
		},
		{
			name:  "a timed-out receive gets no edge; a dropped send sends nothing",
			tasks: 2,
			events: []trace.Event{
				ev(0, y, 5, W, -1, 0),
				ev(0, trace.KindSend, 9, trace.FlagDropped, 1, 3),
				ev(1, trace.KindRecv, 9, trace.FlagTimeout, -1, 3),
				ev(1, y, 5, W, -1, 0),
			},
			want: [][2]int{{1, 2}, {0, 3}},
		},
		{
			name:  "a timer firing sends its message",
			tasks: 3,
			events: []trace.Event{
				ev(0, y, 5, W, -1, 0),              // 0
				ev(0, trace.KindSpawn, 0, 0, 2, 0), // 1: set timer task 2
				ev(2, trace.KindTimer, 9, 0, 1, 4), // 2: fires, sends m4 to task 1
				ev(1, trace.KindRecv, 9, 0, 2, 4),  // 3
				ev(1, y, 5, W, -1, 0),              // 4: after 0 through spawn, timer, receive
			},
			want: nil,
		},
		{
			name:  "a kill races with its victim's latest concurrent observable step",
			tasks: 3,
			events: []trace.Event{
				ev(1, y, 5, W, -1, 0),              // 0: victim writes 5, which task 2 also writes
				ev(1, y, 6, W, -1, 0),              // 1: victim writes 6, its private state
				ev(0, trace.KindKill, 9, 0, 1, 0),  // 2: kill task 1: races with 0, not 1
				ev(2, y, 5, W, -1, 0),              // 3: races with 0
				ev(2, trace.KindSend, 8, 0, 0, 4),  // 4: task 2 sends m4 to task 0
				ev(0, trace.KindRecv, 8, 0, 2, 4),  // 5
				ev(0, trace.KindKill, 10, 0, 2, 0), // 6: kill task 2 after its send: no race
				ev(0, trace.KindKill, 11, 0, 0, 0), // 7: a task killing itself: no race
			},
			want: [][2]int{{0, 2}, {0, 3}},
		},
		{
			name:  "clock jumps and runtime events are not steps",
			tasks: 2,
			events: []trace.Event{
				ev(0, y, 1, W, -1, 0),
				{Task: -1, Kind: trace.KindClock, Obj: -1, Val: 1000},
				ev(-1, y, 1, W, -1, 0),
				ev(1, y, 1, W, -1, 0),
			},
			want: [][2]int{{0, 3}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := &trace.Trace{Tasks: tasks(tc.tasks), Events: tc.events}
			if got := conflicts(tr); !slices.Equal(got, tc.want) {
				t.Errorf("conflicts = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestClocks(t *testing.T) {
	tr := &trace.Trace{Tasks: tasks(2), Events: []trace.Event{
		ev(0, trace.KindStart, 0, 0, -1, 0),
		ev(0, trace.KindSpawn, 0, 0, 1, 0),
		ev(1, trace.KindStart, 0, 0, -1, 0),
		ev(1, trace.KindSend, 3, 0, 0, 1),
		{Task: -1, Kind: trace.KindClock, Obj: -1},
		ev(0, trace.KindRecv, 3, 0, 1, 1),
	}}
	want := map[int]hb.VC{0: {1}, 1: {2}, 2: {2, 1}, 3: {2, 2}, 5: {3, 2}}
	got := map[int]hb.VC{}
	hb.Clocks(tr, func(i int, vc hb.VC) { got[i] = vc.Clone() })
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("clocks = %v, want %v", got, want)
	}
	if !got[1].LessEq(got[5]) || got[5].LessEq(got[3]) || !got[3].LessEq(got[5]) {
		t.Errorf("LessEq disagrees with the clocks %v", got)
	}
	if got[3].Concurrent(got[5]) || !(hb.VC{1, 0}).Concurrent(hb.VC{0, 1}) {
		t.Error("Concurrent is wrong")
	}
	var v hb.VC
	v.Join(hb.VC{0, 4, 1})
	v.Join(hb.VC{2})
	if fmt.Sprint(v) != "[2 4 1]" || v.At(7) != 0 || v.At(-1) != 0 {
		t.Errorf("Join/At: %v", v)
	}
}

// TestConflictsMatchesPairwise checks ConflictPairs against the definition on
// random traces: every pair of steps compared through full vector clocks.
func TestConflictsMatchesPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		tr := randomTrace(rng)
		var clocks = map[int]hb.VC{}
		hb.Clocks(tr, func(i int, vc hb.VC) { clocks[i] = vc.Clone() })
		var want [][2]int
		for j := range tr.Events {
			for i := 0; i < j; i++ {
				a, b := &tr.Events[i], &tr.Events[j]
				ci, okI := clocks[i]
				cj, okJ := clocks[j]
				if !okI || !okJ || a.Task == b.Task || !ci.Concurrent(cj) {
					continue
				}
				sameRes := a.Res != 0 && a.Res == b.Res && a.Flag&b.Flag&trace.FlagRead == 0
				if sameRes || b.Kind == trace.KindKill && b.Obj == a.Task && latestObservable(tr, i, j) {
					want = append(want, [2]int{i, j})
				}
			}
		}
		if got := conflicts(tr); !slices.Equal(got, want) {
			t.Fatalf("trace %d: conflicts = %v, want %v\nevents %v", iter, got, want, tr.Events)
		}
	}
}

// observable reports whether step i touches a resource that some other task
// touches somewhere in tr.
func observable(tr *trace.Trace, i int) bool {
	e := &tr.Events[i]
	if e.Res == 0 {
		return false
	}
	for k := range tr.Events {
		if o := &tr.Events[k]; o.Res == e.Res && o.Task >= 0 && o.Task != e.Task && o.IsStep() {
			return true
		}
	}
	return false
}

// latestObservable reports whether step i is the last observable step of its
// task before event j.
func latestObservable(tr *trace.Trace, i, j int) bool {
	if !observable(tr, i) {
		return false
	}
	for k := i + 1; k < j; k++ {
		if e := &tr.Events[k]; e.Task == tr.Events[i].Task && e.IsStep() && observable(tr, k) {
			return false
		}
	}
	return true
}

// randomTrace makes a trace of a few tasks doing reads, writes, sends,
// receives and spawns, consistent with the runtime's rules (a task runs only
// after its spawn, a message is received only after it was sent).
func randomTrace(rng *rand.Rand) *trace.Trace {
	const nTasks = 4
	started := []bool{true, false, false, false}
	nextChild := int32(1)
	type msg struct {
		id int64
		to int32
	}
	var inFlight []msg
	var msgID int64
	tr := &trace.Trace{Tasks: tasks(nTasks)}
	for len(tr.Events) < 30 {
		task := int32(rng.IntN(nTasks))
		if !started[task] {
			continue
		}
		var e trace.Event
		switch k := rng.IntN(10); {
		case k < 4:
			e = ev(task, trace.KindYield, uint32(1+rng.IntN(3)), trace.Flag(rng.IntN(2))*trace.FlagRead, -1, 0)
		case k < 6:
			to := int32(rng.IntN(nTasks))
			msgID++
			e = ev(task, trace.KindSend, uint32(10+to), 0, to, msgID)
			inFlight = append(inFlight, msg{msgID, to})
		case k < 8:
			e = ev(task, trace.KindRecv, uint32(10+task), trace.FlagTimeout, -1, 0)
			for x, m := range inFlight {
				if m.to == task {
					e.Flag, e.Val = 0, m.id
					inFlight = slices.Delete(inFlight, x, x+1)
					break
				}
			}
		case k < 9 && rng.IntN(3) == 0:
			victim := int32(rng.IntN(nTasks))
			e = ev(task, trace.KindKill, uint32(10+victim), 0, victim, 0)
		case k < 9 && nextChild < nTasks:
			e = ev(task, trace.KindSpawn, 0, 0, nextChild, 0)
			started[nextChild] = true
			nextChild++
		default:
			e = ev(task, trace.KindYield, 0, 0, -1, 0)
		}
		tr.Events = append(tr.Events, e)
	}
	return tr
}

// Two tasks send to the mailbox (resource 7) of task 1, which receives the
// first message. The sends race with each other, and the second send races
// with the receive; the first send happens before its receive.
func ExampleConflictPairs() {
	tr := &trace.Trace{
		Tasks: []trace.Task{{ID: 0, Name: "a"}, {ID: 1, Name: "b"}, {ID: 2, Name: "c"}},
		Events: []trace.Event{
			{Task: 0, Kind: trace.KindSend, Res: 7, Obj: 1, Val: 1}, // a sends m1 to b
			{Task: 2, Kind: trace.KindSend, Res: 7, Obj: 1, Val: 2}, // c sends m2 to b
			{Task: 1, Kind: trace.KindRecv, Res: 7, Obj: 0, Val: 1}, // b receives m1
		},
	}
	hb.ConflictPairs(tr, func(i, j int) {
		fmt.Printf("%s %s races with %s %s\n",
			tr.TaskName(tr.Events[i].Task), tr.Events[i].Kind, tr.TaskName(tr.Events[j].Task), tr.Events[j].Kind)
	})
	// Output:
	// a send races with c send
	// c send races with b recv
}
