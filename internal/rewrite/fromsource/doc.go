// Package fromsource checks, in a test binary of its own, that the
// rewriter's loads, which take the standard library from export data,
// rewrite every file as loading everything from source does, byte for byte
// (rewrite.LoadFromSource): the cases' loads type-check the standard
// library from source (once, shared by the cases), minutes under -race on a
// busy machine, which in the rewriter's own test binary came near go test's
// time-out.
package fromsource
