package hb_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// churnTrace returns a random trace whose tasks come and go: tasks spawn
// short-lived ones, which access resources, send and receive messages, use
// the Go-native primitives, kill, and end with an exit or a timer's firing
// (a send), after which some of them step again all the same: resources
// whose accesses are ordered for a while (markResource's latest access
// after all the others) and then race again.
func churnTrace(rng *rand.Rand, events int) *trace.Trace {
	const maxTasks = 48
	tr := &trace.Trace{Tasks: tasks(maxTasks)}
	live, ended := []int32{0}, []int32(nil)
	next := int32(1)
	var inFlight []int64
	var msg int64 = 1
	syncKinds := []trace.Kind{trace.KindLock, trace.KindUnlock, trace.KindLoad, trace.KindStore,
		trace.KindSwap, trace.KindWGAdd, trace.KindWGWait, trace.KindOnce}
	add := func(e trace.Event) { tr.Events = append(tr.Events, e) }
	for len(tr.Events) < events {
		task := live[rng.IntN(len(live))]
		switch x := rng.IntN(12); {
		case x <= 1 && next < maxTasks:
			add(ev(task, trace.KindSpawn, 0, 0, next, 0))
			live = append(live, next)
			next++
		case x <= 3:
			add(ev(task, trace.KindYield, uint32(1+rng.IntN(4)), trace.Flag(rng.IntN(2))*trace.FlagRead, -1, 0))
		case x == 4:
			to := int32(rng.IntN(int(next)))
			add(ev(task, trace.KindSend, uint32(10+to), 0, to, msg))
			inFlight = append(inFlight, msg)
			msg++
		case x == 5 && len(inFlight) > 0:
			y := rng.IntN(len(inFlight))
			add(ev(task, trace.KindRecv, uint32(10+task), 0, -1, inFlight[y]))
			inFlight = slices.Delete(inFlight, y, y+1)
		case x == 6 && task != 0:
			if rng.IntN(2) == 0 {
				add(ev(task, trace.KindExit, 0, 0, -1, 0))
			} else { // a timer firing: a send to a task's mailbox
				to := int32(rng.IntN(int(next)))
				add(ev(task, trace.KindTimer, uint32(10+to), 0, to, msg))
				inFlight = append(inFlight, msg)
				msg++
			}
			i := slices.Index(live, task)
			live = slices.Delete(live, i, i+1)
			ended = append(ended, task)
		case x == 7:
			k := syncKinds[rng.IntN(len(syncKinds))]
			e := ev(task, k, uint32(20+rng.IntN(3)), 0, -1, 0)
			if k == trace.KindLoad {
				e.Flag = trace.FlagRead
			}
			add(e)
		case x == 8:
			add(ev(task, trace.KindKill, 0, 0, int32(rng.IntN(int(next))), 0))
		case x == 9 && len(ended) > 0 && rng.IntN(3) == 0: // an ended task steps again
			add(ev(ended[rng.IntN(len(ended))], trace.KindYield, uint32(1+rng.IntN(4)), 0, -1, 0))
		}
	}
	return tr
}

// On traces whose tasks come and go (and some step after they ended),
// ConflictMarker and ConflictingEvents mark what ConflictPairs pairs.
func TestConflictMarkerChurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var m hb.ConflictMarker
	var buf []bool
	for iter := range 1500 {
		tr := churnTrace(rng, 10+rng.IntN(300))
		want := marked(tr)
		if got := stepMarks(&m, tr); !slices.Equal(got, want) {
			t.Fatalf("iteration %d: ConflictMarker = %v, want %v\nevents %v", iter, got, want, tr.Events)
		}
		if buf = hb.ConflictingEvents(tr, buf); !slices.Equal(buf, want) {
			t.Fatalf("iteration %d: ConflictingEvents = %v, want %v\nevents %v", iter, buf, want, tr.Events)
		}
	}
}

// relayTrace returns a trace where n tasks (more than markResource scans
// in one pass) pass a token around and access a few resources while they
// hold it, so that most accesses happen after all the earlier ones, with
// accesses by tasks that do not hold the token (reads and writes, which
// race) now and then.
func relayTrace(rng *rand.Rand, n, events int) *trace.Trace {
	tr := &trace.Trace{Tasks: tasks(n)}
	for c := int32(1); c < int32(n); c++ {
		tr.Events = append(tr.Events, ev(0, trace.KindSpawn, 0, 0, c, 0))
	}
	holder := int32(0)
	var msg int64 = 1
	for len(tr.Events) < events {
		task, flag := holder, trace.Flag(0)
		if rng.IntN(24) == 0 {
			task = int32(rng.IntN(n))
		}
		if rng.IntN(3) == 0 {
			flag = trace.FlagRead
		}
		if task == holder && rng.IntN(4) == 0 {
			// Tell another task all but the access: it knows the step
			// just before, and races with the access; then it tells
			// the holder, whose accesses are after all again.
			other := int32(rng.IntN(n))
			tr.Events = append(tr.Events, ev(holder, trace.KindSend, 51, 0, other, msg))
			tr.Events = append(tr.Events, ev(task, trace.KindYield, uint32(1+rng.IntN(2)), flag, -1, 0),
				ev(other, trace.KindRecv, 51, trace.FlagRead, -1, msg),
				ev(other, trace.KindYield, uint32(1+rng.IntN(2)), trace.Flag(rng.IntN(2))*trace.FlagRead, -1, 0),
				ev(other, trace.KindSend, 52, 0, holder, msg+1), // and tell the holder
				ev(holder, trace.KindRecv, 52, trace.FlagRead, -1, msg+1))
			msg += 2
			continue
		}
		tr.Events = append(tr.Events, ev(task, trace.KindYield, uint32(1+rng.IntN(2)), flag, -1, 0))
		if rng.IntN(2) == 0 { // hand the token on
			next := int32(rng.IntN(n))
			tr.Events = append(tr.Events, ev(holder, trace.KindSend, 50, 0, next, msg), ev(next, trace.KindRecv, 50, 0, -1, msg))
			holder = next
			msg++
		}
	}
	return tr
}

// Where many tasks access a resource in turn, ConflictMarker and
// ConflictingEvents mark what ConflictPairs pairs (an access that knows the latest
// one, itself after all the others, is not scanned).
func TestConflictMarkerRelay(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var m hb.ConflictMarker
	var buf []bool
	for iter := range 300 {
		n, events := 17+rng.IntN(60), 50+rng.IntN(600)
		if iter%4 == 0 { // past manyTasks on a resource: its tasks indexed by id
			n, events = 65+rng.IntN(100), 600+rng.IntN(1500)
		}
		tr := relayTrace(rng, n, events)
		want := marked(tr)
		if got := stepMarks(&m, tr); !slices.Equal(got, want) {
			t.Fatalf("iteration %d: ConflictMarker = %v, want %v\nevents %v", iter, got, want, tr.Events)
		}
		if buf = hb.ConflictingEvents(tr, buf); !slices.Equal(buf, want) {
			t.Fatalf("iteration %d: ConflictingEvents = %v, want %v\nevents %v", iter, buf, want, tr.Events)
		}
	}
}
