package hb_test

import (
	"math/rand/v2"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// poTrace builds a trace of nt tasks doing reads and writes on a few
// resources and sending messages to each other, each receive after its send.
func poTrace(rng *rand.Rand, nt, steps int) *trace.Trace {
	tr := &trace.Trace{Tasks: tasks(nt)}
	inbox := make([][]int64, nt) // messages sent to each task, not yet received
	msg := int64(0)
	for range steps {
		task := int32(rng.IntN(nt))
		switch rng.IntN(4) {
		case 0: // send
			to := int32(rng.IntN(nt))
			tr.Events = append(tr.Events, ev(task, trace.KindSend, 0, 0, to, msg))
			inbox[to] = append(inbox[to], msg)
			msg++
		case 1: // receive the oldest message, if any
			if len(inbox[task]) > 0 {
				tr.Events = append(tr.Events, ev(task, trace.KindRecv, 0, 0, -1, inbox[task][0]))
				inbox[task] = inbox[task][1:]
				continue
			}
			fallthrough
		default: // read or write one of three resources
			var flag trace.Flag
			if rng.IntN(2) == 0 {
				flag = trace.FlagRead
			}
			tr.Events = append(tr.Events, ev(task, trace.KindYield, uint32(1+rng.IntN(3)), flag, -1, 0))
		}
	}
	return tr
}

// dependent says whether adjacent steps a, b (a first) may not be swapped,
// by the model's own definition, independent of package trace's code: the
// same task, a message and its receipt, or a conflict on a resource.
func dependent(a, b trace.Event) bool {
	switch {
	case a.Task == b.Task:
		return true
	case a.Kind == trace.KindSend && b.Kind == trace.KindRecv && a.Val == b.Val:
		return true
	case a.Res != 0 && a.Res == b.Res && (a.Flag|b.Flag)&trace.FlagRead == 0:
		return true // two writes
	case a.Res != 0 && a.Res == b.Res && (a.Flag&b.Flag)&trace.FlagRead == 0:
		return true // a read and a write
	}
	return false
}

// TestPartialOrderSwapIndependent checks the defining property: swapping
// adjacent independent steps keeps the identity; swapping adjacent
// dependent steps of different tasks (a conflict) changes it.
func TestPartialOrderSwapIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kept, changed := 0, 0
	for round := range 300 {
		tr := poTrace(rng, 2+round%4, 10+rng.IntN(40))
		want := hb.PartialOrder(tr)
		for range 50 {
			i := rng.IntN(len(tr.Events) - 1)
			a, b := tr.Events[i], tr.Events[i+1]
			if dependent(a, b) {
				if a.Task != b.Task && a.Kind == trace.KindYield {
					swapped := *tr
					swapped.Events = append([]trace.Event(nil), tr.Events...)
					swapped.Events[i], swapped.Events[i+1] = b, a
					if hb.PartialOrder(&swapped) == want {
						t.Fatalf("round %d: swapping conflicting steps %d and %d kept the identity %#x", round, i, i+1, want)
					}
					changed++
				}
				continue
			}
			tr.Events[i], tr.Events[i+1] = b, a
			if got := hb.PartialOrder(tr); got != want {
				t.Fatalf("round %d: swapping independent steps %d and %d changed the identity: %#x, then %#x", round, i, i+1, want, got)
			}
			kept++
		}
	}
	if kept < 1000 || changed < 100 {
		t.Fatalf("too few swaps exercised: %d independent, %d conflicting", kept, changed)
	}
}

// TestPartialOrderTaskIDs checks that the identity names tasks by their
// stable keys: the same run with its tasks numbered the other way round (two
// children spawned in the other order) has the same identity.
func TestPartialOrderTaskIDs(t *testing.T) {
	y := trace.KindYield
	a := &trace.Trace{Tasks: []trace.Task{{ID: 0, Key: 7}, {ID: 1, Key: 8}, {ID: 2, Key: 9}}, Events: []trace.Event{
		ev(1, y, 1, 0, -1, 0), ev(2, y, 2, 0, -1, 0), ev(1, y, 2, 0, -1, 0),
	}}
	b := &trace.Trace{Tasks: []trace.Task{{ID: 0, Key: 7}, {ID: 1, Key: 9}, {ID: 2, Key: 8}}, Events: []trace.Event{
		ev(2, y, 5, 0, -1, 0), ev(1, y, 6, 0, -1, 0), ev(2, y, 6, 0, -1, 0),
	}}
	if pa, pb := hb.PartialOrder(a), hb.PartialOrder(b); pa != pb {
		t.Fatalf("renumbered tasks and resources: %#x != %#x", pa, pb)
	}
	// The other order of the conflict on resource 2 is another partial order.
	c := &trace.Trace{Tasks: a.Tasks, Events: []trace.Event{
		ev(1, y, 1, 0, -1, 0), ev(1, y, 2, 0, -1, 0), ev(2, y, 2, 0, -1, 0),
	}}
	if hb.PartialOrder(a) == hb.PartialOrder(c) {
		t.Fatal("the two orders of a conflict have the same identity")
	}
}

// TestPartialOrderChoices checks that a choice's value is part of the order.
func TestPartialOrderChoices(t *testing.T) {
	mk := func(v int64) *trace.Trace {
		return &trace.Trace{Tasks: tasks(1), Events: []trace.Event{ev(0, trace.KindChoose, 0, 0, -1, v)}}
	}
	if hb.PartialOrder(mk(0)) == hb.PartialOrder(mk(1)) {
		t.Fatal("choices 0 and 1 have the same identity")
	}
}

// TestPartialOrdererReuse checks that the buffers of PartialOrder reused
// over many traces of all sizes give what a fresh computation gives.
func TestPartialOrdererReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var o hb.PartialOrderer
	for round := range 300 {
		tr := poTrace(rng, 1+rng.IntN(6), rng.IntN(60))
		for i := range tr.Events { // some steps as the Go-native kinds, whose edges keep state
			e := &tr.Events[i]
			if e.Kind == trace.KindYield && rng.IntN(2) == 0 {
				e.Kind = []trace.Kind{trace.KindStore, trace.KindLoad, trace.KindLock, trace.KindUnlock, trace.KindChanSend, trace.KindChanRecv}[rng.IntN(6)]
				e.Val = int64(rng.IntN(3))
			}
		}
		if got, want := o.PartialOrder(tr), new(hb.PartialOrderer).PartialOrder(tr); got != want {
			t.Fatalf("round %d: reused %#x, fresh %#x", round, got, want)
		}
	}
}
