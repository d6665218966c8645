// Package goruntime holds every read morpheus makes of the Go runtime's and
// the testing package's internals: things no API promises, which a Go
// release may move. Each has a canary test here that fails loudly (also
// under -short) when it has moved, naming what broke:
//
//   - The g pointer (GoroutineKey): read from thread-local storage on amd64
//     (getg_amd64.s) and from the g register, R28, on arm64 (getg_arm64.s).
//     CurrentTask keys its carriers by it. If it moved, every primitive
//     would find no task (or another's); the canary compares keys across
//     goroutines. Elsewhere the key is the goroutine id parsed from a stack.
//   - The goroutine id's offset in g (Goid): found once by calibration,
//     against the ids runtime.Stack prints. If no offset fits, Goid falls
//     back to parsing a stack (about a microsecond instead of a few
//     nanoseconds): correct but slow, so the canary fails when calibration
//     finds nothing on an architecture that reads g (GoidFast).
//   - The frame pointer chain (CallerPC): the return address one word above
//     the frame pointer of CallerPC's caller, on amd64 (BP) and arm64 (R29).
//     Every op's source location comes from it; if the layout changed,
//     reports would name wrong lines. The canary compares it with
//     runtime.Callers. Elsewhere CallerPC calls runtime.Callers.
//   - Frame names matched as strings (Gopanic, Goexit, FailNow, SkipNow):
//     where a panic was raised and whether a runtime.Goexit came from
//     t.FailNow or t.SkipNow. If renamed, panics would be located at their
//     task's last op and a t.Fatal in a goroutine would read as a bare
//     Goexit; the canaries raise each and look for the name on the stack.
//   - testing.T's private failed mark and its mutex mu (ClearFailed):
//     counting mode clears the mark between schedules. If they moved,
//     ClearFailed panics rather than count wrong; the canary clears a
//     failed subtest's mark.
//   - The runtime's findObject (ObjectBase): the start of the heap object
//     that holds an address, read through the //go:linkname the runtime
//     keeps for it. rt holds a location's object weakly by its start, one
//     weak record per object. If it went, the link would fail; if its
//     meaning changed, locations would be held by the wrong object; the
//     canary checks fields, elements and a package variable.
//   - A weak pointer's layout (WeakGone): one word, a pointer to the
//     runtime's handle, which holds the object's address until the
//     collector frees it. rt checks whether a cached location's object is
//     gone by reading that word. If the layout changed, WeakGone would read
//     something else; the canary compares it with Value before and after a
//     collection.
package goruntime
