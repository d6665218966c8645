package ctl

import (
	"sync"
	"weak"

	"github.com/morpheus-go/morpheus/internal/core"
)

// Local holds one value per iteration, for package-level registries (the
// listeners of the in-memory network) that iterations running in parallel
// on several workers must not share. It keys values by the worker's run,
// weakly, so that a finished exploration's workers are not kept alive, and
// hands out a fresh value when the run has moved on to a new iteration.
// Lookups take a lock: use it for rare ops, not per message.
type Local[T any] struct {
	mu sync.Mutex
	m  map[weak.Pointer[core.Run]]*local[T]
}

type local[T any] struct {
	gen uint64
	v   *T
}

// Get returns r's current iteration's value, made by fresh on first use.
func (l *Local[T]) Get(r *core.Run, fresh func() *T) *T {
	k := weak.Make(r)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = make(map[weak.Pointer[core.Run]]*local[T])
	}
	e, ok := l.m[k]
	if !ok {
		l.sweep()
		e = &local[T]{}
		l.m[k] = e
	}
	if e.v == nil || e.gen != r.Gen() {
		e.gen, e.v = r.Gen(), fresh()
	}
	return e.v
}

// sweep forgets the values of runs that were collected.
func (l *Local[T]) sweep() {
	for k := range l.m {
		if k.Value() == nil {
			delete(l.m, k)
		}
	}
}
