// Package prim implements csync's channels, select, shared variables,
// timers, tickers, sleeps and goroutine starts as ops of the controlled
// scheduler, each op located at a pc its caller gives.
//
// Package csync wraps these in its public API, locating each op at its own
// caller's line (goruntime.CallerPC); package rt, whose helpers stand in for Go's
// operators in rewritten code, calls them with the line of the rewritten
// statement, so that an op is located at the user's line, not at the
// helper's. The semantics are csync's: see its package documentation.
package prim
