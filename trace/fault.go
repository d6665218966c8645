package trace

import "unsafe"

// Fault decisions.
//
// A message between nodes under Env.SetFaults may be dropped, duplicated or
// delayed; its fate is a controlled choice, a KindChoose step of the sending
// task made just before its send. That step is a fault decision: it carries
// FlagFault, its Obj is the receiver, and FlagDropped, FlagDuplicated or
// FlagDelayed says which fault struck (none: the message went as usual).
// Val stays the value chosen, as for any choice, since a replay follows it.
// The message is the one of the task's next step, the send the decision was
// made for, so the event need not carry it.

// FaultOutcome returns what fault decision e decided, as a verb: "drop",
// "duplicate", "delay", or "deliver" when no fault struck (under Reorder
// the message then still travels as its own delivery step); "" if e is not
// a fault decision.
func FaultOutcome(e *Event) string {
	if e.Kind != KindChoose || e.Flag&FlagFault == 0 {
		return ""
	}
	switch {
	case e.Flag&FlagDropped != 0:
		return "drop"
	case e.Flag&FlagDuplicated != 0:
		return "duplicate"
	case e.Flag&FlagDelayed != 0:
		return "delay"
	}
	return "deliver"
}

// faultDetail describes fault decision e: "drop → backup@n2 main.Put{K:1}".
func (t *Trace) faultDetail(e *Event) []string {
	parts := []string{FaultOutcome(e), "→ " + t.peer(e.Obj)}
	if id, ok := t.faultMsg(e); ok {
		parts = append(parts, t.renderMsg(id))
	}
	return parts
}

// faultMsg returns the id of the message fault decision e decided about:
// that of the next step of e's task, if it is a send to the same receiver.
func (t *Trace) faultMsg(e *Event) (int64, bool) {
	i := t.indexOf(e)
	if i < 0 {
		return 0, false
	}
	for j := i + 1; j < len(t.Events); j++ {
		n := &t.Events[j]
		if n.Task != e.Task || !n.IsStep() {
			continue
		}
		return n.Val, n.Kind == KindSend && n.Obj == e.Obj
	}
	return 0, false
}

// indexOf returns the index of e in t.Events, or -1 if e points elsewhere
// (a copy). It compares addresses as numbers and never makes a pointer of
// one, so that a caller holding &t.Events[i] needs not pass i as well.
func (t *Trace) indexOf(e *Event) int {
	if len(t.Events) == 0 {
		return -1
	}
	d := uintptr(unsafe.Pointer(e)) - uintptr(unsafe.Pointer(&t.Events[0]))
	i := d / unsafe.Sizeof(Event{})
	if i < uintptr(len(t.Events)) && &t.Events[i] == e {
		return int(i)
	}
	return -1
}
