package main

import (
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// A trace is the same schedule as its copy under another strategy and seed
// (a shrunk trace is the replay's), not as one whose events, places or
// clock limit differ.
func TestSameSchedule(t *testing.T) {
	mk := func(where string, events ...trace.Event) *trace.Trace {
		return &trace.Trace{
			Header: trace.Header{Test: "TestX", Strategy: "random", Seed: 1, Failure: &trace.Failure{Kind: "assertion", Task: 0}},
			Events: events, Where: map[uint64]string{1: where, 2: "x.go:2"},
		}
	}
	a := mk("x.go:1", trace.Event{Task: 0, Obj: -1, Res: 1, Loc: 1}, trace.Event{Task: 1, Obj: -1, Res: 1, Loc: 2})
	same := mk("x.go:1", trace.Event{Task: 0, Obj: -1, Res: 1, Loc: 1}, trace.Event{Task: 1, Obj: -1, Res: 1, Loc: 2})
	same.Header.Strategy, same.Header.Seed = "replay", 7
	if !sameSchedule(a, same) {
		t.Errorf("a copy under another strategy and seed is not the same schedule")
	}
	shorter := mk("x.go:1", trace.Event{Task: 0, Obj: -1, Res: 1, Loc: 1})
	swapped := mk("x.go:1", trace.Event{Task: 1, Obj: -1, Res: 1, Loc: 2}, trace.Event{Task: 0, Obj: -1, Res: 1, Loc: 1})
	moved := mk("x.go:9", trace.Event{Task: 0, Obj: -1, Res: 1, Loc: 1}, trace.Event{Task: 1, Obj: -1, Res: 1, Loc: 2})
	limited := mk("x.go:1", trace.Event{Task: 0, Obj: -1, Res: 1, Loc: 1}, trace.Event{Task: 1, Obj: -1, Res: 1, Loc: 2})
	limited.Header.Failure.ClockLimit = 5
	for name, b := range map[string]*trace.Trace{"shorter": shorter, "swapped": swapped, "moved": moved, "limited": limited} {
		if sameSchedule(a, b) {
			t.Errorf("%s: counted as the same schedule", name)
		}
	}
}
