package hb

import (
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// A task covers another when it knows the other's latest access: a
// WaitGroup's Done after the access, waited for, orders it; steps after the
// access (an exit) need not be known; without the wait it is not covered,
// and a task with no access always is.
func TestRacesCovers(t *testing.T) {
	var d Races
	steps := []trace.Event{
		sev(0, trace.KindSpawn, 0, 0, 1, 0),
		sev(0, trace.KindSpawn, 0, 0, 2, 0),
		sev(0, trace.KindSpawn, 0, 0, 3, 0),
		memWrite(1),
		sev(1, trace.KindWGAdd, 9, 0, -1, -1),
		sev(1, trace.KindExit, 0, 0, -1, 0),
		memWrite(2),
		sev(3, trace.KindYield, 0, 0, -1, 0),
	}
	for i := range steps {
		d.Step(&steps[i])
	}
	if !d.Covers(0, 3) || !d.Covers(0, 7) {
		t.Error("a task without accesses is not covered")
	}
	if d.Covers(0, 1) || d.Covers(0, 2) {
		t.Fatal("covered before the wait")
	}
	wait := sev(0, trace.KindWGWait, 9, trace.FlagRead, -1, 0)
	d.Step(&wait)
	if !d.Covers(0, 1) {
		t.Error("the wait for g1's Done does not cover its write (or its exit after it counts)")
	}
	if d.Covers(0, 2) {
		t.Error("g2, never joined, is covered")
	}
	d.Reset()
	if !d.Covers(0, 1) {
		t.Error("Reset kept the accesses")
	}
}
