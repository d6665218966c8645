// Package rewrite turns ordinary Go packages and their tests into code that
// runs under morpheus's controlled scheduler, at build time and without
// changing the user's files: the driver (package driver) compiles the
// rewritten files through an overlay.
//
// Load type-checks the packages matched by the patterns with their tests
// and dependencies, records which package-level variables the load writes
// (Globals, locality.go), and rewrites every file of a package that is not
// the standard library's or morpheus's with RewriteFile. A file is
// rewritten in passes that collect edits of its source (edit.go), none of
// which changes a line number:
//
//   - the walk (walk.go) rewrites the concurrency constructs: go
//     statements, channel operations and ranges (stmts.go), select
//     (selectstmt.go), atomics (atomic.go), ranges over maps (mapiter.go),
//     the network (net.go, and netconcrete.go for the functions that
//     return concrete types), the names of sync, time, context, runtime,
//     iter and the random packages redirected to package rt (names.go), and
//     wraps the tests in rt.Test, but for those that use morpheus
//     themselves (checktests.go) and those that reach the real network,
//     which rt.RealTest runs once as go test does (realnet.go, computed
//     over the whole load); it lists what cannot be controlled (Issue);
//   - the memory pass (mem.go) turns each load and store of a location
//     goroutines may share into an op of rt (Read, Write, ReadMap,
//     WriteMap), which locality.go decides statically: package-level
//     variables something writes, what is reached through a pointer, a
//     slice or a map, and locals whose address is taken or that a closure
//     captures and assigns.
//
// With a shadow (LoadConfig.Shadow; BuildShadow, shadow.go), imports of
// net/http and the standard packages that import it become imports of
// their rewritten copies (shadowimports.go), and their servers and clients
// are no reason to run a test on the real network.
//
// The renderer then applies the edits: an edit renders the parts it keeps
// through the renderer, so edits nest (a send of a shared field inside a
// goroutine inside a select), and edits of the same span layer.
package rewrite
