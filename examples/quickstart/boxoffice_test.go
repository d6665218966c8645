package quickstart_test

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/examples/quickstart"
)

// noOversell is a safety monitor: the office never hands out a ticket it
// does not have.
func noOversell(m *morpheus.Mon, event any) {
	if s, ok := event.(quickstart.Sold); ok {
		m.Assert(s.Left >= 0, "oversold: %d tickets left", s.Left)
	}
}

// boxOffice is the test of one show with a single ticket, sold by two
// windows to two buyers at once: exactly one buyer gets it.
func boxOffice(atomic bool) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		e.AddMonitor("no oversell", morpheus.MonitorFunc(noOversell))
		office := e.NewNode("office", nil).Spawn("office", quickstart.Office(1))
		main := e.Self()
		for _, name := range []string{"window1", "window2"} {
			w := e.NewNode(name, nil).Spawn("window", quickstart.Window(office, atomic))
			e.NewNode("buyer-at-"+name, nil).Spawn("buyer", func(e *morpheus.Env) {
				e.Send(w, quickstart.Order{Buyer: e.Self()})
				e.Send(main, e.Receive(nil)) // the window's answer
			})
		}
		tickets := 0
		for range 2 {
			if _, ok := e.Receive(nil).(quickstart.Ticket); ok {
				tickets++
			}
		}
		e.Assert(tickets == 1, "%d buyers got the show's one ticket", tickets)
	}
}

// The fixed windows pass in every schedule morpheus tries.
func TestReserveNeverOversells(t *testing.T) {
	morpheus.Check(t, boxOffice(true), morpheus.Iterations(2000))
}

// The buggy windows oversell, and morpheus finds the schedule that shows it.
// (A test of your own would call morpheus.Check, as above, and fail with the
// report and the saved trace; this one asserts that the bug is found, so
// that it passes.)
func TestQueryThenTakeOversells(t *testing.T) {
	res, err := morpheus.Explore(boxOffice(false), morpheus.Name(t.Name()), morpheus.Iterations(2000), morpheus.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil {
		t.Fatalf("no oversell in %d iterations", res.Iterations)
	}
	if f.Kind != "assertion" || !strings.Contains(f.Message, "oversold: -1 tickets left") {
		t.Fatalf("unexpected failure: %v", f)
	}
	t.Logf("found in iteration %d:\n%s", f.Iteration, f.Report())
}
