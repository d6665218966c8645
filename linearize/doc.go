// Package linearize checks that the operations the clients of a morpheus
// test observed are linearizable, with the porcupine checker
// (github.com/anishathalye/porcupine).
//
// Linearizability asks that every operation appear to take effect at a
// single instant between its call and its return, in an order a sequential
// specification (a porcupine.Model) accepts. A test records what its clients
// invoke and what they get back in a History, one per iteration, and calls
// Check at the end of the iteration. A violation fails the iteration with an
// assertion failure whose message starts with "linearizability:", and
// porcupine's HTML visualisation of the history is attached to it:
// morpheus.Check writes it beside the saved trace as
// <trace>.linearizability.html.
//
// # A worked example
//
// Two clients each put or get key "x" of a store under test (storeLoop, and
// its Request and Reply messages, stand for the system's own code):
//
//	func TestStore(t *testing.T) {
//		morpheus.Check(t, func(e *morpheus.Env) {
//			h := linearize.NewHistory(e)
//			store := e.NewNode("db", nil).Spawn("store", storeLoop)
//			done := e.Self()
//			for c := range 2 {
//				e.Spawn("client", func(e *morpheus.Env) {
//					in := linearize.KVInput{Op: linearize.KVGet, Key: "x"}
//					if e.ChooseBool() {
//						in = linearize.KVInput{Op: linearize.KVPut, Key: "x", Value: fmt.Sprint(c)}
//					}
//					id := h.Call(c, in)                       // before the request leaves
//					e.Send(store, Request{In: in, From: e.Self()})
//					r := morpheus.Recv[Reply](e)
//					h.Return(id, linearize.KVOutput{Value: r.Value}) // once the answer is in
//					e.Send(done, "done")
//				})
//			}
//			morpheus.Recv[string](e)
//			morpheus.Recv[string](e)
//			linearize.Check(e, linearize.KVModel, h)
//		})
//	}
//
// If the store lets client 0 read "" after client 1's put("x", "1") has
// returned, no order of the two operations explains it, and the test fails
// with
//
//	linearizability: 2 operations of 2 clients are not linearizable (longest linearizable prefix: 1 of 2 operations)
//	linearizable prefix:
//	    put("x", "1")  [client 1, operation 0: called at 0s (event 1), returned at 0s (event 2)]
//	cannot be linearized after it:
//	    get("x") → ""  [client 0, operation 1: called at 0s (event 3), returned at 0s (event 4)]
//	see the attachment linearizability.html
//
// and the report names the attachment. Package bench/internal/systems/kv
// of morpheus's repository is a complete example: a primary-backup store whose
// backup serves stale reads.
//
// # Time
//
// Calls and returns are stamped with the virtual clock (Env.Elapsed), made
// strictly increasing by a per-history counter (see History.Call): tasks run
// one at a time, so the order of the calls to Call and Return is the
// real-time order, and porcupine sees exactly it.
//
// # Pending operations
//
// An operation that never returns — its client crashed, or timed out and
// gave up — is pending: it may or may not have taken effect. Check gives it
// an unknown (nil) output and a return after every other event, which
// porcupine treats like +∞ (see History.Operations); models must accept a
// nil output as "any outcome" (KVModel does). Leaving such operations out
// would report writes that took effect although their client never heard
// back as violations.
//
// # Models
//
// KVModel specifies a key-value store with get, put, append and
// compare-and-swap on string keys and values (KVInput, KVOutput). Any other
// porcupine.Model works the same way; its Step functions run on porcupine's
// goroutines, must be pure, and a panic in them fails the iteration as a
// panic.
package linearize
