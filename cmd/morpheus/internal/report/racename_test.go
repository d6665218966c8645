package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// raceTrace is a data race on c.hits between g1's plain write (memory#6,
// step 2) and g2's atomic write (an atomic's swap of var#7, step 3), found
// at g2's next step, a read of memory#8; the message's accesses are later
// and earlier.
func raceTrace(later, earlier string) *trace.Trace {
	return &trace.Trace{
		Header: trace.Header{Failure: &trace.Failure{Kind: "race", Task: 2, Step: 4, Loc: "c.go:20",
			Message: "data race on c.hits: g2 " + later + " at c.go:20, unordered with g1's " + earlier + " at c.go:10 (step 2): no synchronisation orders the two"}},
		Tasks: []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "g1"}, {ID: 2, Name: "g2"}},
		Events: []trace.Event{
			{Task: 0, Obj: -1, Res: 5, Kind: trace.KindLock, Loc: 4},
			{Task: 1, Obj: -1, Res: 6, Kind: trace.KindMemWrite, Loc: 1},
			{Task: 2, Obj: -1, Res: 7, Kind: trace.KindSwap, Loc: 2},
			{Task: 2, Obj: -1, Res: 8, Kind: trace.KindMemRead, Loc: 3},
		},
		Where: map[uint64]string{1: "c.go:10", 2: "c.go:20", 3: "c.go:30", 4: "c.go:1"},
	}
}

// TestRaceNamesEveryAccess: the resources of a data race's two accesses
// carry the location's name, an atomic's as a plain one's, whichever came
// first; the step the race was found at and the other resources keep
// theirs, as do races on locations without a name and races of other kinds.
func TestRaceNamesEveryAccess(t *testing.T) {
	for _, c := range [][2]string{{"atomic write", "write"}, {"write", "atomic read"}} {
		tr := raceTrace(c[0], c[1])
		if c[1] == "atomic read" { // g1's atomic load of var#7, then g2's plain write
			tr.Events[1].Res, tr.Events[1].Kind = 7, trace.KindLoad
			tr.Events[2].Res, tr.Events[2].Kind = 6, trace.KindMemWrite
		}
		names := resourceNames(tr, nil)
		if !strings.HasPrefix(names[6], "c.hits (memory#6") || !strings.HasPrefix(names[7], "c.hits (var#7") {
			t.Errorf("%s after %s: plain location %q, atomic %q: want both named c.hits", c[0], c[1], names[6], names[7])
		}
		if names[5] != "mutex#5 c.go:1" || names[8] != "memory#8 c.go:30" {
			t.Errorf("%s after %s: other resources renamed: %q, %q", c[0], c[1], names[5], names[8])
		}
	}
	for _, msg := range []string{
		"data race on location#6: g2 atomic write at c.go:20, unordered with g1's write at c.go:10 (step 2): no synchronisation orders the two",
		"data race on waitgroup#3: g2 WaitGroup.Add from zero at c.go:20, unordered with g1's WaitGroup.Wait at c.go:10 (step 2): no synchronisation orders the two",
	} {
		tr := raceTrace("", "")
		tr.Header.Failure.Message = msg
		if names := resourceNames(tr, nil); names[6] != "memory#6 c.go:10" || names[7] != "var#7 c.go:20" {
			t.Errorf("%s: names %q, %q", msg, names[6], names[7])
		}
	}
}

// TestRaceSectionStatesDataRace: a data race failure's Races section says
// the failure is itself a race (its first access is not in the causal past
// of the second, so no listed pair shows it); other failures' does not.
func TestRaceSectionStatesDataRace(t *testing.T) {
	const says = "The failure is itself a data race"
	for _, kind := range []string{"race", "assertion"} {
		tr := raceTrace("atomic write", "write")
		tr.Header.Failure.Kind = kind
		text := ""
		for _, sec := range traceSections(tr) {
			if sec.ID != "races" {
				continue
			}
			for _, b := range sec.Blocks {
				text += fmt.Sprint(b)
			}
		}
		if got := strings.Contains(text, says); got != (kind == "race") {
			t.Errorf("%s failure: races section says %q: %v, want %v (section: %s)", kind, says, got, kind == "race", text)
		}
	}
}
