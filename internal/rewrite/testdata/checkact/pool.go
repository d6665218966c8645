// Package checkact is a pool of tokens with a check-then-act on a plain
// field: Take checks that a token is free, then takes it. Nothing here
// knows about morpheus; under morpheus rewrite the check and the act are
// two ops, so a schedule runs another Take between them.
package checkact

import "sync"

// Pool hands out a fixed number of tokens.
type Pool struct {
	mu   sync.Mutex
	free int
}

// NewPool makes a pool of n tokens.
func NewPool(n int) *Pool { return &Pool{free: n} }

// Take takes a token if one is free. The bug: nothing orders two Takes.
func (p *Pool) Take() bool {
	if p.free > 0 {
		p.free--
		return true
	}
	return false
}

// TakeLocked is Take under the pool's lock.
func (p *Pool) TakeLocked() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.free > 0 {
		p.free--
		return true
	}
	return false
}

// Free returns the number of free tokens.
func (p *Pool) Free() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.free
}
