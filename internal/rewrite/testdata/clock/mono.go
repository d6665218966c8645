package clock

import (
	"time"
	_ "unsafe" // for go:linkname
)

// nanotime is the runtime's monotonic clock, reached as packages written
// before time.Time kept a monotonic reading did.
//
//go:noescape
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Lease expires d after it is granted, by the monotonic clock.
type Lease struct{ expiry int64 }

// Grant starts a lease of d.
func Grant(d time.Duration) *Lease { return &Lease{expiry: nanotime() + int64(d)} }

// Expired tells whether the lease has run out.
func (l *Lease) Expired() bool { return nanotime() >= l.expiry }

// WaitExpired checks the lease every tick until it has run out, and
// returns how many checks it took.
func (l *Lease) WaitExpired(tick time.Duration) int {
	n := 0
	for !l.Expired() {
		time.Sleep(tick)
		n++
	}
	return n
}
