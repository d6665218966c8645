package rt_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// A metrics collector adds a sample per collection since its last look
// (go-metrics' runtime statistics): in a schedule no collection has run, so
// its steps do not depend on the process's history; outside a schedule the
// statistics are the runtime's.
func TestReadMemStatsHasNoCollectorHistory(t *testing.T) {
	runtime.GC()
	var m runtime.MemStats
	rt.ReadMemStats(&m)
	if m.NumGC == 0 || m.PauseTotalNs == 0 {
		t.Fatalf("outside a schedule: NumGC %d, PauseTotalNs %d after runtime.GC, want the runtime's", m.NumGC, m.PauseTotalNs)
	}
	var in runtime.MemStats
	_, err := morpheus.Explore(func(*morpheus.Env) {
		runtime.GC()
		rt.ReadMemStats(&in)
	}, morpheus.Iterations(1), morpheus.Workers(1))
	if err != nil {
		t.Fatal(err)
	}
	if in.NumGC != 0 || in.NumForcedGC != 0 || in.PauseTotalNs != 0 || in.LastGC != 0 || in.PauseNs != [256]uint64{} || in.PauseEnd != [256]uint64{} {
		t.Errorf("in a schedule: NumGC %d, NumForcedGC %d, PauseTotalNs %d, LastGC %d, want no collection", in.NumGC, in.NumForcedGC, in.PauseTotalNs, in.LastGC)
	}
	if in.Sys == 0 || in.Mallocs == 0 {
		t.Errorf("in a schedule: Sys %d, Mallocs %d, want the process's", in.Sys, in.Mallocs)
	}
}

// The shape of go-metrics' collector: a sample, an op, per collection since
// the last look. Its trace replays after more collections than the
// recording's process had (a replay's fresh process has its own number).
func TestCollectorReplaysAfterCollections(t *testing.T) {
	var last uint32
	body := func(e *morpheus.Env) {
		var m runtime.MemStats
		rt.ReadMemStats(&m)
		for i := last; i < m.NumGC; i++ {
			e.Yield() // adds the sample
		}
		last = m.NumGC
		e.Fatalf("collected %d", m.NumGC)
	}
	runtime.GC()
	res, err := morpheus.Explore(body, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Shrink(0))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure == nil {
		t.Fatal("the schedule passed")
	}
	path := filepath.Join(t.TempDir(), "trace")
	if err := morpheus.WriteTrace(path, res.Failure.Trace); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC()
	last = 0
	rep, err := morpheus.Explore(body, morpheus.Replay(path))
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Failure; f == nil || f.Kind != res.Failure.Kind {
		t.Fatalf("the replay: %v, want the recorded %s failure", f, res.Failure.Kind)
	}
}
