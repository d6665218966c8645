package rt

import "github.com/morpheus-go/morpheus/csync"

// The sync types, controlled. Rewritten code names them instead of sync's;
// an embedded sync.Mutex stays a field named Mutex.
type (
	Mutex     = csync.Mutex
	RWMutex   = csync.RWMutex
	WaitGroup = csync.WaitGroup
	Once      = csync.Once
	Cond      = csync.Cond
)

// NewCond stands for sync.NewCond.
func NewCond(l csync.Locker) *Cond { return csync.NewCond(l) }

// OnceFunc stands for sync.OnceFunc.
func OnceFunc(f func()) func() {
	var once Once
	var p any
	return func() {
		once.Do(func() {
			defer func() { p = recover() }()
			f()
		})
		if p != nil {
			panic(p)
		}
	}
}

// OnceValue stands for sync.OnceValue.
func OnceValue[T any](f func() T) func() T {
	var v T
	g := OnceFunc(func() { v = f() })
	return func() T { g(); return v }
}

// OnceValues stands for sync.OnceValues.
func OnceValues[T, U any](f func() (T, U)) func() (T, U) {
	var v T
	var u U
	g := OnceFunc(func() { v, u = f() })
	return func() (T, U) { g(); return v, u }
}
