package core

// goroutineKey identifies the calling goroutine (its g pointer) in about two
// nanoseconds.
func goroutineKey() uint64
