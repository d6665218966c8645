package linearize

import (
	"fmt"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/morpheus-go/morpheus"
)

// History records the operations the clients of one iteration invoke and
// the results they get, for Check. Create one per iteration with NewHistory
// and share it between the iteration's tasks: only one task runs at a time,
// so it needs no locking. Like an Env, a History must not be used from a
// goroutine morpheus does not run, nor outlive its iteration.
type History struct {
	env  *morpheus.Env
	ops  []op
	last int64 // the last timestamp given out; -1 before the first
	seq  int   // events recorded so far
}

// op is one recorded operation.
type op struct {
	client        int
	input, output any
	done          bool
	call, ret     int64         // porcupine timestamps (see Call)
	callAt, retAt time.Duration // virtual times, for reports
	callEv, retEv int           // event numbers (1-based), for reports
}

// NewHistory returns an empty history whose timestamps come from e's virtual
// clock.
func NewHistory(e *morpheus.Env) *History {
	return &History{env: e, last: -1}
}

// Call records that client invokes an operation with the given input (for
// KVModel, a KVInput) and returns the operation's id for Return. Call it
// before the client does anything that could let the operation take effect
// (before it sends the request), and Return after the client has its result
// (before it invokes its next operation): the interval in between is the
// operation's, and linearizability asks each operation to take effect at one
// instant inside it.
//
// Clients are numbered from 0; the number only groups operations in reports
// and in the visualisation, whose rows are clients. A client that calls while
// an operation of its own is still pending (it gave up waiting) is drawn on a
// fresh row from then on, as Jepsen gives a crashed client a new process.
//
// # Timestamps
//
// Porcupine orders calls and returns by integer timestamps, and reads
// equal timestamps as overlapping. Each event (call or return) gets
//
//	ts = max(Elapsed in nanoseconds, previous ts + 1)
//
// Exactly one task runs at a time, so the order in which tasks call Call and
// Return is a total order of the events that agrees with real (virtual) time:
// an operation returned before another was called if and only if its Return
// ran before the other's Call. The timestamps strictly increase in that order,
// so porcupine sees exactly the real-time order of the run, including among
// events at one virtual instant (virtual time moves only when nothing can
// run, so many events share an instant). They also stay on the virtual clock,
// never behind it and ahead of it only by one nanosecond per event recorded
// at the same instant, so they read as virtual nanoseconds in the
// visualisation.
//
// Operations that never return (the client crashed, or timed out and gave
// up) are pending; see Operations.
func (h *History) Call(client int, input any) int {
	if client < 0 {
		panic(fmt.Sprintf("linearize: History.Call: client %d is negative", client))
	}
	ts, at, ev := h.stamp()
	h.ops = append(h.ops, op{client: client, input: input, call: ts, callAt: at, callEv: ev})
	return len(h.ops) - 1
}

// Return records that the operation id returned output to its client (for
// KVModel, a KVOutput). Returning an operation twice, or one that Call did
// not return, panics.
func (h *History) Return(id int, output any) {
	if id < 0 || id >= len(h.ops) {
		panic(fmt.Sprintf("linearize: History.Return: no operation %d", id))
	}
	o := &h.ops[id]
	if o.done {
		panic(fmt.Sprintf("linearize: History.Return: operation %d already returned", id))
	}
	o.ret, o.retAt, o.retEv = h.stamp()
	o.output, o.done = output, true
}

// stamp returns the next event's timestamp, virtual time and number.
func (h *History) stamp() (int64, time.Duration, int) {
	at := h.env.Elapsed()
	ts := max(int64(at), h.last+1)
	h.last = ts
	h.seq++
	return ts, at, h.seq
}

// Len returns the number of operations recorded.
func (h *History) Len() int { return len(h.ops) }

// Pending returns the number of operations that have not returned.
func (h *History) Pending() int {
	n := 0
	for i := range h.ops {
		if !h.ops[i].done {
			n++
		}
	}
	return n
}

// Operations returns the history as porcupine operations, in call order, for
// use with porcupine directly; Check uses it.
//
// An operation still pending has Output nil and returns after every event of
// the history: the k-th pending one at the last timestamp + k. Porcupine has
// no notion of an operation that never returns, and leaving one out would be
// wrong: a write whose client crashed may still have taken effect, and a
// later read may see it. Returning after everything else is as good as
// returning at +∞ (only the order of events matters), keeps timestamps
// distinct, and keeps the visualisation's time axis readable. The operation
// is thus concurrent with everything after its call and can be linearized
// anywhere from then on, including after every other operation, where it is
// as if it never happened. A model must accept a nil output as "unknown":
// any outcome the operation could have had (KVModel does).
//
// ClientId is the operation's visualisation row (see Call); Metadata
// describes the client and the virtual times for the visualisation.
func (h *History) Operations() []porcupine.Operation {
	ops := make([]porcupine.Operation, len(h.ops))
	end := h.last
	maxClient := -1
	for i := range h.ops {
		maxClient = max(maxClient, h.ops[i].client)
	}
	row := map[int]int{}     // client -> its current row
	busy := map[int]int64{}  // row -> return time of its latest operation
	nextRow := maxClient + 1 // rows for clients that moved
	for i := range h.ops {
		o := &h.ops[i]
		ret := o.ret
		if !o.done {
			end++
			ret = end
		}
		r, ok := row[o.client]
		if !ok {
			r = o.client
		} else if busy[r] >= o.call {
			r = nextRow
			nextRow++
		}
		row[o.client] = r
		busy[r] = ret
		ops[i] = porcupine.Operation{
			ClientId: r,
			Input:    o.input,
			Call:     o.call,
			Output:   o.output,
			Return:   ret,
			Metadata: &meta{id: i, op: o},
		}
	}
	return ops
}

// meta identifies an operation in porcupine's Metadata.
type meta struct {
	id int
	op *op
}

// String describes the operation's client and times.
func (m *meta) String() string {
	o := m.op
	s := fmt.Sprintf("client %d, operation %d: called at %v (event %d)", o.client, m.id, o.callAt, o.callEv)
	if !o.done {
		return s + ", never returned (pending)"
	}
	return s + fmt.Sprintf(", returned at %v (event %d)", o.retAt, o.retEv)
}
