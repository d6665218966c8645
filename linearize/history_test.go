package linearize

import (
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/morpheus-go/morpheus"
)

// Timestamps follow the virtual clock and strictly increase in the order of
// events; pending operations return after everything, at distinct times,
// with an unknown output.
func TestTimestamps(t *testing.T) {
	var ops []porcupine.Operation
	res, err := morpheus.Explore(func(e *morpheus.Env) {
		h := NewHistory(e)
		a := h.Call(0, "a")
		b := h.Call(1, "b")
		h.Return(a, "A")
		e.Sleep(time.Millisecond)
		h.Return(b, "B")
		h.Call(2, "c") // never returns
		h.Call(0, "d") // never returns
		if h.Len() != 4 || h.Pending() != 2 {
			e.Fatalf("Len %d, Pending %d", h.Len(), h.Pending())
		}
		ops = h.Operations()
	}, morpheus.Iterations(1))
	if err != nil || res.Failure != nil {
		t.Fatal(err, res.Failure)
	}
	ms := int64(time.Millisecond)
	want := []struct {
		call, ret int64
		out       any
	}{
		{0, 2, "A"},
		{1, ms, "B"},
		{ms + 1, ms + 3, nil},
		{ms + 2, ms + 4, nil},
	}
	if len(ops) != len(want) {
		t.Fatalf("%d operations", len(ops))
	}
	for i, w := range want {
		o := ops[i]
		if o.Call != w.call || o.Return != w.ret || o.Output != w.out {
			t.Errorf("operation %d: call %d return %d output %v, want %d %d %v", i, o.Call, o.Return, o.Output, w.call, w.ret, w.out)
		}
	}
	if got := ops[3].Metadata.(*meta).String(); got != "client 0, operation 3: called at 1ms (event 6), never returned (pending)" {
		t.Errorf("metadata %q", got)
	}
	if got := ops[1].Metadata.(*meta).String(); got != "client 1, operation 1: called at 0s (event 2), returned at 1ms (event 4)" {
		t.Errorf("metadata %q", got)
	}
}

// A client that calls while an operation of its own is pending moves to a
// fresh row of the visualisation; one whose operations follow each other
// stays on its own.
func TestRows(t *testing.T) {
	var rows []int
	morpheus.Explore(func(e *morpheus.Env) {
		h := NewHistory(e)
		h.Return(h.Call(1, "a"), nil)
		h.Return(h.Call(1, "b"), nil)
		h.Call(1, "c") // gives up
		x := h.Call(1, "d")
		h.Call(0, "e")
		h.Return(x, nil)
		h.Call(1, "f")
		h.Call(1, "g")
		for _, o := range h.Operations() {
			rows = append(rows, o.ClientId)
		}
	}, morpheus.Iterations(1))
	want := []int{1, 1, 1, 2, 0, 2, 3}
	if len(rows) != len(want) {
		t.Fatalf("rows %v, want %v", rows, want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Fatalf("rows %v, want %v", rows, want)
		}
	}
}

// Misuse panics, which morpheus reports as a panic of the task.
func TestMisuse(t *testing.T) {
	for name, body := range map[string]func(h *History){
		"twice":    func(h *History) { id := h.Call(0, nil); h.Return(id, nil); h.Return(id, nil) },
		"unknown":  func(h *History) { h.Return(3, nil) },
		"negative": func(h *History) { h.Call(-1, nil) },
	} {
		res, _ := morpheus.Explore(func(e *morpheus.Env) { body(NewHistory(e)) }, morpheus.Iterations(1))
		if f := res.Failure; f == nil || f.Kind != "panic" {
			t.Errorf("%s: %v", name, f)
		}
	}
}
