package explore

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// The trace of an uncontrolled-blocking failure ends at the step before
// the blocking task's op (its recovery does not run it): a replay runs
// that op as one step more, so that the task blocks again where it did,
// and diverges only past it (the code no longer blocks there). Any other
// trace diverges where it ends.
func TestReplayRunsTheBlockingStep(t *testing.T) {
	tr := &trace.Trace{
		Tasks: []trace.Task{{Name: "main"}, {Name: "g1"}},
		Events: []trace.Event{
			{Task: 0, Obj: -1, Kind: trace.KindStart},
			{Task: 0, Obj: 1, Kind: trace.KindSpawn},
		},
	}
	enabled := []strategy.Op{{Task: 0, Kind: trace.KindMemRead}, {Task: 1, Kind: trace.KindLock}}
	follow := func(f *trace.Failure) (*Replay, int) {
		tr.Header.Failure = f
		r := NewReplay(tr, nil)
		r.Begin(1)
		r.Next([]strategy.Op{{Task: 0, Kind: trace.KindStart}})
		r.Next([]strategy.Op{{Task: 0, Kind: trace.KindSpawn}})
		return r, r.Next(enabled)
	}
	r, i := follow(&trace.Failure{Kind: "uncontrolled-blocking", Task: 1, Step: 3})
	if i != 1 || !r.Following() {
		t.Fatalf("step 3: picked %d (divergence %q), want g1's lock, the blocking step", i, r.Divergence())
	}
	if r.Next(enabled); r.Following() || !strings.Contains(r.Divergence(), "the trace had ended") {
		t.Errorf("step 4: want the trace ended, got %q", r.Divergence())
	}
	for _, f := range []*trace.Failure{nil, {Kind: "deadlock", Task: 1, Step: 3}, {Kind: "uncontrolled-blocking", Task: -1, Step: 3}} {
		if r, _ := follow(f); r.Following() {
			t.Errorf("failure %+v: the replay went past the trace's end", f)
		}
	}
}
