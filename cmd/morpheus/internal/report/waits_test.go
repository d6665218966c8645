package report

import (
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// A blocked task's line says where it waits, then for what (created or
// first used where), one "at" per phrase; a leak's line keeps where the
// goroutine was started.
func TestDeadlockWaitsWords(t *testing.T) {
	for _, c := range []struct {
		kind, line, want string
	}{
		{"leak", "g1: blocked in chan-send on chan#3 created at leak.go:5 at leak.go:7; started at leak.go:7",
			"g1: waits in chan-send at leak.go:7 for chan#3 (created at leak.go:5); started at leak.go:7"},
		{"deadlock", "g1: blocked in chan-recv on chan#3 created at pull.go:33 at pull.go:36",
			"g1: waits in chan-recv at pull.go:36 for chan#3 (created at pull.go:33)"},
		{"deadlock", "g1: blocked in wg-wait on waitgroup#4 first used at w.go:11 at w.go:14",
			"g1: waits in wg-wait at w.go:14 for waitgroup#4 (first used at w.go:11)"},
	} {
		tr := &trace.Trace{
			Header: trace.Header{Failure: &trace.Failure{Kind: c.kind, Message: "blocked tasks:\n  " + c.line}},
			Tasks:  []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "g1"}},
		}
		lines, words := DeadlockWaits(tr)
		if len(lines) != 1 || lines[0] != c.line || words[0] != c.want {
			t.Errorf("DeadlockWaits(%q) = %q, %q; want %q", c.line, lines, words, c.want)
		}
	}
}
