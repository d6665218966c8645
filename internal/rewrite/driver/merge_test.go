package driver

import (
	"reflect"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// TestMergeGroupings: the records of four processes merge to the same
// outcome at once, as two machines' merges merged, in either order (what
// morpheus merge relies on); the lowest failing schedule is the failure,
// the strongest reason to stop the test's.
func TestMergeGroupings(t *testing.T) {
	recs := []rt.Result{
		{Test: "T", Schedules: 3, Steps: 30, Stopped: rt.StopSchedules, Nanos: 5, Foreign: []string{"b"}},
		{Test: "T", Schedules: 2, Steps: 20, Stopped: rt.StopFailure, Failure: "at 9", Kind: "deadlock", Schedule: 9, Trace: "t9"},
		{Test: "T", Schedules: 4, Steps: 40, Stopped: rt.StopTime, Nanos: 7, Stale: []string{"s"}},
		{Test: "T", Schedules: 1, Steps: 10, Stopped: rt.StopFailure, Failure: "at 3", Kind: "leak", Schedule: 3, Trace: "t3", Foreign: []string{"a"}},
	}
	merge := func(order ...int) *TestSummary {
		t := fromResult(recs[order[0]], order[0])
		for _, j := range order[1:] {
			t.Merge(fromResult(recs[j], j))
		}
		return t
	}
	all := merge(0, 1, 2, 3)
	m0, m1 := merge(0, 2), merge(1, 3) // machine 0: processes 0, 2; machine 1: 1, 3
	m1.Merge(m0)
	if !reflect.DeepEqual(m1, all) {
		t.Errorf("merged by machines:\n%+v\nat once:\n%+v", m1, all)
	}
	if all.Schedules != 10 || all.Steps != 100 || all.Failure != "at 3" || all.Schedule != 3 || all.Trace != "t3" ||
		all.Stopped != rt.StopFailure || all.Elapsed != 7 || !reflect.DeepEqual(all.Foreign, []string{"a", "b"}) {
		t.Errorf("merged: %+v", all)
	}
	// A saved trace that still fails fails every process: it counts once.
	c := rt.Result{Test: "T", Schedules: 1, Steps: 8, Stopped: rt.StopFailure, Failure: "saved", Schedule: -1}
	s := fromResult(c, 0)
	s.Merge(fromResult(c, 1))
	if s.Schedules != 1 || s.Steps != 8 {
		t.Errorf("a saved trace's failure over two processes: %d schedules, %d steps, want 1, 8", s.Schedules, s.Steps)
	}
	if n := shardShare(100, Shard{2, 3}); n != 33 {
		t.Errorf("shard 2/3 of 100 schedules: %d, want 33", n)
	}
}
