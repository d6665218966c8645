package rt_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// pair is a struct whose second field is where the races below are.
type pair struct {
	name string
	n    int64
}

// outer holds a struct and a field beside it: a copy of inner does not
// cover n.
type outer struct {
	inner pair
	n     int64
}

// Whole values against their parts: each program races on a field other
// than the first, which only the access of the whole value covers.
var valueRaces = map[string]struct {
	prog func()
	on   string // the location the report names
}{
	"a copy of a struct and a write of its second field": {func() {
		p := &pair{name: "a"}
		rt.Go(func() { *rt.Write(&p.n, "p.n") = 1 })
		_ = *rt.ReadValue(p, "*p")
	}, "p.n"},
	"a store of a whole struct and a read of its second field": {func() {
		p := &pair{name: "a"}
		rt.Go(func() { _ = *rt.Read(&p.n, "p.n") })
		*rt.WriteValue(p, "*p") = pair{name: "b", n: 2}
	}, "p.n"},
	"a value receiver's copy and an atomic add to the second field": {func() {
		p := &pair{name: "a"}
		rt.Go(func() { rt.Atomic(rt.Point(&p.n, rt.AtomicAdd, "p.n"), atomic.AddInt64(&p.n, 1)) })
		_ = rt.ReadValue(p, "*p").name
	}, "p.n"},
	"an element of an array other than the first": {func() {
		a := new([4]int)
		rt.Go(func() { *rt.Write(&a[2], "a[2]") = 1 })
		_ = *rt.ReadValue(a, "*a")
	}, "a[2]"},
	"a nested struct's field": {func() {
		o := new(outer)
		rt.Go(func() { *rt.Write(&o.inner.n, "o.inner.n") = 1 })
		_ = *rt.ReadValue(&o.inner, "o.inner")
	}, "o.inner.n"},
}

func TestValueRacesFound(t *testing.T) {
	for name, c := range valueRaces {
		t.Run(name, func(t *testing.T) {
			f := explore(t, 200, c.prog)
			if f == nil || f.Kind != "race" {
				t.Fatalf("want a race failure, got %v", f)
			}
			if !strings.Contains(f.Message, "data race on "+c.on+":") {
				t.Errorf("want the race on %s: %s", c.on, f.Message)
			}
		})
	}
}

// Copies that overlap nothing another goroutine writes, or that are
// ordered with it, are no races.
var valueRaceFree = map[string]func(){
	"a copy of one struct, a write beside it": func() {
		o := new(outer)
		rt.Go(func() { *rt.Write(&o.n, "o.n") = 1 })
		_ = *rt.ReadValue(&o.inner, "o.inner")
	},
	"copies under a lock": func() {
		var mu csync.Mutex
		var wg csync.WaitGroup
		p := &pair{}
		wg.Add(1)
		rt.Go(func() {
			defer wg.Done()
			mu.Lock()
			*rt.Write(&p.n, "p.n") = 1
			mu.Unlock()
		})
		mu.Lock()
		_ = *rt.ReadValue(p, "*p")
		mu.Unlock()
		wg.Wait()
		*rt.WriteValue(p, "*p") = pair{}
	},
	"two copies": func() {
		p := &pair{n: 1}
		rt.Go(func() { _ = *rt.ReadValue(p, "*p") })
		_ = *rt.Read(&p.n, "p.n")
		_ = *rt.ReadValue(p, "*p")
	},
}

// TestNoFalseRaces runs them with the others.
func init() {
	for name, prog := range valueRaceFree {
		raceFree["whole values: "+name] = prog
	}
}

// A value of memory its task owns stays no step after the task's first
// access, its parts included; once another task wrote a part, the copy is
// a step (a read of memory no task wrote would not be: unwritten.go).
func TestValuePartsShareTheValue(t *testing.T) {
	steps := func(other bool) int64 {
		res, err := morpheus.Explore(func(*morpheus.Env) {
			p := &pair{}
			done, end := rt.Make[chan bool](0), rt.Make[chan bool](0)
			rt.Go(func() { // alive until main's copies are made: main does not run alone
				if other {
					*rt.Write(&p.n, "p.n") = 1 // before main's copies: the send orders it
				}
				rt.Send(done, true)
				rt.Recv(end)
			})
			rt.Recv(done)
			for range 10 {
				_ = *rt.ReadValue(p, "*p")
			}
			rt.Send(end, true)
		}, morpheus.Iterations(1), morpheus.Workers(1))
		if err != nil || res.Failure != nil {
			t.Fatalf("%v %v", err, res.Failure)
		}
		return res.Steps
	}
	owned, shared := steps(false), steps(true)
	if shared < owned+9 {
		t.Errorf("%d steps with a part written by another task, %d with the value owned: want each of the 10 copies a step then", shared, owned)
	}
}
