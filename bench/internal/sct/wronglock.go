package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// wronglock: one thread does x = v; v++; assert v == x + 1 under lock A,
// while n others increment v under lock B: an increment between its read
// and its check fails it. Fixed: everybody uses lock A.
func wronglock(name string, n, threads, steps int) Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			var v csync.Var[int]
			var la, lb csync.Mutex
			other := &lb
			if fixed {
				other = &la
			}
			ts := []*csync.Chan[struct{}]{thread(func() {
				la.Lock()
				x := v.Load()
				v.Store(v.Load() + 1)
				got := v.Load()
				la.Unlock()
				e.Assert(got == x+1, "wronglock: v=%d after incrementing %d", got, x)
			})}
			for range n {
				ts = append(ts, thread(func() {
					other.Lock()
					v.Store(v.Load() + 1)
					other.Unlock()
				}))
			}
			join(ts)
		}
	}
	return Case{Name: name, Threads: threads, Steps: steps, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "wronglock:"}
}
