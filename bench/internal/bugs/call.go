package bugs

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
)

// Synchronous calls between processes, Erlang's gen_server:call: the caller
// monitors the callee, sends the request and waits for the reply or for the
// callee's Down, whichever comes first.

// request is a call's request as the callee receives it.
type request struct {
	From morpheus.PID
	Ref  morpheus.Ref
	Body any
}

// reply answers the request with the same Ref.
type reply struct {
	Ref  morpheus.Ref
	Body any
}

// callError is the error of a call whose callee exited before it replied:
// Erlang's {'EXIT', {Reason, ...}}.
type callError struct {
	To     morpheus.PID
	Reason any
}

func (c *callError) Error() string { return fmt.Sprintf("call to %v: %v", c.To, c.Reason) }

// call sends body to `to` and waits for its reply. It returns an error if
// `to` exits (or was already dead) before replying.
func call(e *morpheus.Env, to morpheus.PID, body any) (any, error) {
	r, errs := multiCall(e, []morpheus.PID{to}, body)
	return r[0], errs[0]
}

// multiCall sends body to every process of to, then collects their replies
// (Erlang's multi_call): replies[i] is to[i]'s reply, or errs[i] says why
// there is none.
func multiCall(e *morpheus.Env, to []morpheus.PID, body any) (replies []any, errs []error) {
	refs := make([]morpheus.Ref, len(to))
	for i, p := range to {
		refs[i] = e.Watch(p)
		e.Send(p, request{From: e.Self(), Ref: refs[i], Body: body})
	}
	replies, errs = make([]any, len(to)), make([]error, len(to))
	for i, ref := range refs {
		m := e.Receive(func(m any) bool {
			switch m := m.(type) {
			case reply:
				return m.Ref == ref
			case morpheus.Down:
				return m.Ref == ref
			}
			return false
		})
		if d, ok := m.(morpheus.Down); ok {
			errs[i] = &callError{To: to[i], Reason: d.Reason}
			continue
		}
		e.Unwatch(ref)
		replies[i] = m.(reply).Body
	}
	return replies, errs
}

// answer replies to a request.
func answer(e *morpheus.Env, req request, body any) {
	e.Send(req.From, reply{Ref: req.Ref, Body: body})
}
