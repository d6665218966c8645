package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// stack: a pusher pushes 10 values, raising a flag after each push; a popper,
// in each of its 10 rounds, pops if the flag is up, and the flag is never
// lowered: when the popper gets ahead of the pusher the stack underflows.
// All under one mutex. Fixed: the popper pops only from a non-empty stack.
func stackCase() Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			const size = 10
			var m csync.Mutex
			// Guarded by m.
			var arr [size]int
			top := 0
			flag := false
			ts := []*csync.Chan[struct{}]{
				thread(func() {
					for i := range size {
						m.Lock()
						if top == size {
							e.Fatalf("stack: overflow")
						}
						arr[top] = i
						top++
						flag = true
						m.Unlock()
					}
				}),
				thread(func() {
					for range size {
						m.Lock()
						if flag && (!fixed || top > 0) {
							if top == 0 {
								e.Fatalf("stack: underflow")
							}
							top--
							_ = arr[top]
						}
						m.Unlock()
					}
				}),
			}
			join(ts)
		}
	}
	return Case{Name: "stack", Threads: 3, Steps: 43, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "stack: underflow"}
}
