// Package valuerecv counts hits with atomics and reads them through a
// value method called on a pointer, whose receiver is a plain copy of the
// whole struct.
package valuerecv

import "sync/atomic"

// Stats counts hits.
type Stats struct {
	hits int64
	name string
}

// Hit counts one hit.
func (s *Stats) Hit() { atomic.AddInt64(&s.hits, 1) }

// Hits loads the count atomically, but from its receiver: a copy of the
// caller's Stats, made by a plain read of all of it.
func (s Stats) Hits() int64 { return atomic.LoadInt64(&s.hits) }

// HitsLoaded loads the count atomically where it is.
func (s *Stats) HitsLoaded() int64 { return atomic.LoadInt64(&s.hits) }

// Tagged counts hits after its name: the count is its second field.
type Tagged struct {
	name string
	hits int64
}

// Hit counts one hit.
func (s *Tagged) Hit() { atomic.AddInt64(&s.hits, 1) }

// Hits loads the count atomically from its receiver, a copy of all of the
// caller's Tagged.
func (s Tagged) Hits() int64 { return atomic.LoadInt64(&s.hits) }
