package hb_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// marked is what ConflictingEvents must return: both sides of every pair
// ConflictPairs lists.
func marked(tr *trace.Trace) []bool {
	want := make([]bool, len(tr.Events))
	hb.ConflictPairs(tr, func(i, j int) { want[i], want[j] = true, true })
	return want
}

// ConflictingEvents marks exactly the events of ConflictPairs' pairs, on random traces
// and on traces where many tasks race on few resources (where it skips
// what it marked), reusing its buffer.
func TestConflictedMatchesConflicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var buf []bool
	for iter := range 600 {
		var tr *trace.Trace
		if iter%2 == 0 {
			tr = randomTrace(rng)
		} else {
			tr = contended(rng, 2+rng.IntN(40), 1+rng.IntN(3), 10+rng.IntN(300))
		}
		buf = hb.ConflictingEvents(tr, buf)
		if want := marked(tr); !slices.Equal(buf, want) {
			t.Fatalf("trace %d: ConflictingEvents = %v, want %v\nevents %v", iter, buf, want, tr.Events)
		}
	}
	if got := hb.ConflictingEvents(&trace.Trace{}, buf); len(got) != 0 {
		t.Errorf("empty trace: %v", got)
	}
}

// contended makes a trace of n tasks, all spawned by task 0, reading and
// writing res resources, with sends and receives that order some of them.
func contended(rng *rand.Rand, n, res, events int) *trace.Trace {
	tr := &trace.Trace{Tasks: tasks(n)}
	for c := int32(1); c < int32(n); c++ {
		tr.Events = append(tr.Events, ev(0, trace.KindSpawn, 0, 0, c, 0))
	}
	var msgID int64
	var inFlight []int64
	for len(tr.Events) < events {
		task := int32(rng.IntN(n))
		switch k := rng.IntN(10); {
		case k < 7:
			tr.Events = append(tr.Events, ev(task, trace.KindYield, uint32(1+rng.IntN(res)), trace.Flag(rng.IntN(2))*trace.FlagRead, -1, 0))
		case k < 8:
			msgID++
			tr.Events = append(tr.Events, ev(task, trace.KindSend, 100, 0, -1, msgID))
			inFlight = append(inFlight, msgID)
		case len(inFlight) > 0:
			tr.Events = append(tr.Events, ev(task, trace.KindRecv, 100, 0, -1, inFlight[0]))
			inFlight = inFlight[1:]
		}
	}
	return tr
}

// BenchmarkConflicted and BenchmarkConflictsMarking compare the two ways
// of marking conflicted events on a trace of 1,025 tasks contending for one
// resource, the shape of errgroup's TestGoLimit.
func BenchmarkConflicted(b *testing.B) {
	tr := contended(rand.New(rand.NewPCG(1, 1)), 1025, 1, 6000)
	var buf []bool
	for b.Loop() {
		buf = hb.ConflictingEvents(tr, buf)
	}
}

func BenchmarkConflictsMarking(b *testing.B) {
	tr := contended(rand.New(rand.NewPCG(1, 1)), 1025, 1, 6000)
	buf := make([]bool, len(tr.Events))
	for b.Loop() {
		clear(buf)
		hb.ConflictPairs(tr, func(i, j int) { buf[i], buf[j] = true, true })
	}
}
