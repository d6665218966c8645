// Package rt is the runtime that rewritten code imports: it is for code
// produced by morpheus's rewriter (morpheus rewrite, package
// internal/rewrite) only, and its API follows the rewriter's needs, not a
// user's. Nothing here is meant to be called by hand; use csync for that.
//
// The rewriter turns every goroutine, channel operation, select, lock,
// atomic, timer and context deadline of a package, its tests and its
// non-standard dependencies into calls of rt, which puts them on morpheus's
// controlled scheduler (csync's primitives): each is an op, and the strategy
// picks which goroutine runs next.
//
// Channels keep their native Go type, so rewritten code still hands them to
// the standard library. A channel made by rewritten code (Make) is
// registered in a side table with the controlled channel (csync's, from
// its implementation package internal/prim) that really carries its values; every operation on it looks the channel up. The table holds the
// channel weakly, so a channel kept across schedules (in a sync.Pool, a
// global) stays controlled, and one dropped is collected as usual. A channel not in the
// table was made elsewhere (the standard library: a timer's channel, a
// context's Done) and is foreign: its operations are not ops of the
// scheduler. A foreign receive or send polls the channel and waits for
// virtual time in between, so that the controlled goroutines that would
// make it ready can run; the first use of each foreign channel is listed in
// the report (Foreign), and one that never gets ready ends the iteration
// as stuck at the clock limit rather than hanging.
//
// Mutex, RWMutex, WaitGroup, Once and Cond are csync's types under sync's
// names: rewritten code calls their methods directly, so each op is located
// at the user's line. Everything else calls internal/prim, csync's
// implementation, with the op located at the line of the call in the
// rewritten file, which keeps the original's line numbers.
//
// Test runs an ordinary Go test under control: see its documentation for
// the environment variables the driver sets. RealTest runs one that
// reaches the real network once, as go test does (net.go says which
// listens and dials are in memory).
package rt
