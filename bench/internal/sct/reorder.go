package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// reorder_N: setter threads write a = 1 then b = -1; checker threads read a
// then b and assert (a, b) is (0, 0) or (1, -1). It fails only if a checker
// reads between a setter's two writes (or its reads straddle them). Fixed:
// setters and checkers hold a lock around their accesses.
func reorder(name string, setters, checkers, threads, steps int) Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			var a, b csync.Var[int]
			var mu csync.Mutex
			lock := func() {
				if fixed {
					mu.Lock()
				}
			}
			unlock := func() {
				if fixed {
					mu.Unlock()
				}
			}
			var ts []*csync.Chan[struct{}]
			for range setters {
				ts = append(ts, thread(func() {
					lock()
					a.Store(1)
					b.Store(-1)
					unlock()
				}))
			}
			for range checkers {
				ts = append(ts, thread(func() {
					lock()
					x := a.Load()
					y := b.Load()
					unlock()
					e.Assert(x == 0 && y == 0 || x == 1 && y == -1, "reorder: checker saw a=%d b=%d", x, y)
				}))
			}
			join(ts)
		}
	}
	return Case{Name: name, Threads: threads, Steps: steps, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "reorder:"}
}
