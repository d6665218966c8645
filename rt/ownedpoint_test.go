package rt_test

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// A goroutine's first access to memory of its own after an op (its start,
// which the strategy takes at once, or a send) is a step: the test's body
// can return before it, and the goroutine's log then comes after the test
// completed (a logger's entry the goroutine builds, then writes to the
// test's t). With every access to memory of its own no step, the goroutine
// ran from the op to its log in one go, before the body returned, in every
// schedule.
func TestOwnedFirstAccessIsPreemptionPoint(t *testing.T) {
	type logger interface{ Logf(string, ...any) }
	var l logger = t
	type entry struct{ msg string }
	logLate := func() {
		e := new(entry)
		*rt.Write(&e.msg, "e.msg") = "late"
		rt.TB(l).Logf("%s", *rt.Read(&e.msg, "e.msg"))
	}
	cases := map[string]func(){
		"after its start": func() {
			rt.Go(logLate)
		},
		"after a send": func() {
			ch := rt.Make[chan int](0)
			rt.Go(func() {
				rt.Send(ch, 1)
				logLate()
			})
			rt.Recv(ch)
		},
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := morpheus.Explore(func(*morpheus.Env) { body() },
				morpheus.Iterations(100), morpheus.Workers(1), morpheus.Seed(1))
			if err != nil {
				t.Fatal(err)
			}
			f := res.Failure
			if f == nil || f.Kind != "panic" || !strings.Contains(f.Message, "has completed") {
				t.Fatalf("want the panic of a log after the test completed, got %v", f)
			}
		})
	}
}
