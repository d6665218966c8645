package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// twostage: a writer sets d1 = 1 under lock 1, then d2 = d1 + 1 under lock
// 2; a reader, if d1 ≠ 0, reads d1 under lock 1, then d2 under lock 2, and
// asserts d2 == d1 + 1. It fails when the reader runs entirely between a
// writer's two stages. twostage_100 has 99 writers. Fixed: both hold lock 1
// across both stages.
func twostage(name string, writers, threads, steps int) Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			var d1, d2 csync.Var[int]
			var l1, l2 csync.Mutex
			var ts []*csync.Chan[struct{}]
			for range writers {
				ts = append(ts, thread(func() {
					l1.Lock()
					d1.Store(1)
					if !fixed {
						l1.Unlock()
					}
					l2.Lock()
					d2.Store(d1.Load() + 1)
					l2.Unlock()
					if fixed {
						l1.Unlock()
					}
				}))
			}
			ts = append(ts, thread(func() {
				l1.Lock()
				if d1.Load() == 0 {
					l1.Unlock()
					return
				}
				t1 := d1.Load()
				if !fixed {
					l1.Unlock()
				}
				l2.Lock()
				t2 := d2.Load()
				l2.Unlock()
				if fixed {
					l1.Unlock()
				}
				e.Assert(t2 == t1+1, "twostage: reader saw d1=%d d2=%d", t1, t2)
			}))
			join(ts)
		}
	}
	return Case{Name: name, Threads: threads, Steps: steps, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "twostage:"}
}
