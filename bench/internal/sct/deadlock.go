package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// deadlock01: two threads take locks a and b in opposite orders; if each
// takes its first lock before the other takes its second, both wait forever
// and so does main, joining them: a deadlock. Fixed: both take a first.
func deadlock01() Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			var a, b csync.Mutex
			counter := 1 // guarded by a and b
			second1, second2 := &b, &a
			first2 := &b
			if fixed {
				first2, second2 = &a, &b
			}
			ts := []*csync.Chan[struct{}]{
				thread(func() {
					a.Lock()
					second1.Lock()
					counter++
					second1.Unlock()
					a.Unlock()
				}),
				thread(func() {
					first2.Lock()
					second2.Lock()
					counter--
					second2.Unlock()
					first2.Unlock()
				}),
			}
			join(ts)
			e.Assert(counter == 1, "deadlock01: counter %d", counter)
		}
	}
	return Case{Name: "deadlock01", Threads: 3, Steps: 11, Buggy: prog(false), Fixed: prog(true),
		Kind: "deadlock", Prefix: "blocked in lock on mutex"}
}
