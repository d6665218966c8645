// Package runs runs its scripts in testdata/script as cmd/morpheus's run
// theirs, in a test binary of its own (see package scripts): morpheus test
// and morpheus rewrite on rewritten modules (the budget, epochs, cached
// outcomes, -rewrite=false's Checks), and help, usage and clean.
package runs
