// Package leaf is imported by the others: an edit here reaches them.
package leaf

import "sync"

// Hits is written by another package of the module.
var Hits int

// Box holds a value under a lock.
type Box struct {
	mu sync.Mutex
	v  int
}

// Put stores v.
func (b *Box) Put(v int) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}

// Limit is written by leaf's own tests only: in a load of mid's tests,
// where leaf's tests are not, nothing writes it.
var Limit = 3

// Under reads Limit.
func Under(n int) bool { return n < Limit }

// Quiet is read here and written by no package of the module, until an
// edit of the driver's tests makes top write it: then leaf's rewrite
// changes too, and so do the binaries that link leaf.
var Quiet bool

// Say reports whether to speak.
func Say() bool { return !Quiet }
