// Package sctplain is the shared-memory bug suite of package sct written a
// second time as plain Go, as a user would write it: plain variables and
// struct fields, sync.Mutex, sync.WaitGroup, go statements and sync/atomic,
// each case an ordinary test that fails (t.Error, a deadlock) when its bug
// manifests, beside a fixed variant (TestXxxFixed) that never fails.
//
// Run as it is, with go test, the buggy tests rarely fail: Go's scheduler
// seldom interleaves such short goroutines. Run through morpheus's rewriter
// (morpheus rewrite, morpheus bench sct -plain), every lock, atomic and,
// with the rewriter's memory pass, every access to a variable goroutines
// share is a scheduling point, and the strategy chooses the interleaving (a
// goroutine's start is a step too, but one the strategies run at once: it
// touches nothing the others see). The failures are data races on purpose:
// run them with races allowed (MORPHEUS_RT_ALLOWRACES), so that only the
// tests' own checks fail them.
//
// A test calls t.Error, never t.Fatal, in its goroutines (t.Fatal must run
// on the test's goroutine) and in its body alike, so that counting mode
// (MORPHEUS_RT_COUNT) can run every schedule.
package sctplain
