// Package newcomer runs its scripts in testdata/script as cmd/morpheus's run
// theirs, in a test binary of its own (see package scripts).
package newcomer
