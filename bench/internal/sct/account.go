package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// account: balance x = 1; a deposit of y = 2 and a withdrawal of z = 4, each
// under the mutex; a checker, created first, asserts under the mutex that
// once both are done the balance is (x - y) - z, which it never is: it fails
// whenever the checker runs last. Fixed: the checker expects (x + y) - z.
func account() Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			const x, y, z = 1, 2, 4
			var m csync.Mutex
			balance := x // guarded by m
			deposited, withdrawn := false, false
			want := (x - y) - z
			if fixed {
				want = (x + y) - z
			}
			ts := []*csync.Chan[struct{}]{
				thread(func() {
					m.Lock()
					if deposited && withdrawn {
						e.Assert(balance == want, "account: balance %d, want %d", balance, want)
					}
					m.Unlock()
				}),
				thread(func() {
					m.Lock()
					balance += y
					deposited = true
					m.Unlock()
				}),
				thread(func() {
					m.Lock()
					balance -= z
					withdrawn = true
					m.Unlock()
				}),
			}
			join(ts)
		}
	}
	return Case{Name: "account", Threads: 4, Steps: 8, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "account:"}
}
