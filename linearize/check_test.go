package linearize_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/linearize"
)

// run runs body once in an iteration and returns its failure, if any.
func run(t *testing.T, body func(e *morpheus.Env)) *morpheus.Failure {
	t.Helper()
	res, err := morpheus.Explore(body, morpheus.Iterations(1), morpheus.Name(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	return res.Failure
}

func get(k string) linearize.KVInput { return linearize.KVInput{Op: linearize.KVGet, Key: k} }
func put(k, v string) linearize.KVInput {
	return linearize.KVInput{Op: linearize.KVPut, Key: k, Value: v}
}
func appendOp(k, v string) linearize.KVInput {
	return linearize.KVInput{Op: linearize.KVAppend, Key: k, Value: v}
}
func cas(k, old, v string) linearize.KVInput {
	return linearize.KVInput{Op: linearize.KVCAS, Key: k, Old: old, Value: v}
}
func read(v string) linearize.KVOutput { return linearize.KVOutput{Value: v} }
func swapped(ok bool) linearize.KVOutput {
	return linearize.KVOutput{OK: ok}
}

// step is one event of a scripted history: client c calls in (out unset),
// or operation op returns out.
type step struct {
	call   bool
	client int
	in     linearize.KVInput
	op     int
	out    any
}

func call(c int, in linearize.KVInput) step { return step{call: true, client: c, in: in} }
func ret(op int, out any) step              { return step{op: op, out: out} }

// seq is a sequential history of client 0: every operation returns at once.
func seq(pairs ...any) []step {
	var s []step
	for i := 0; i < len(pairs); i += 2 {
		s = append(s, call(0, pairs[i].(linearize.KVInput)), ret(i/2, pairs[i+1]))
	}
	return s
}

func script(steps []step) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		h := linearize.NewHistory(e)
		var ids []int
		for _, s := range steps {
			if s.call {
				ids = append(ids, h.Call(s.client, s.in))
			} else {
				h.Return(ids[s.op], s.out)
			}
		}
		linearize.Check(e, linearize.KVModel, h)
	}
}

func TestKVModel(t *testing.T) {
	ok := linearize.KVOutput{}
	for _, c := range []struct {
		name  string
		steps []step
		legal bool
	}{
		{"empty", nil, true},
		{"sequential", seq(get("x"), read(""), put("x", "1"), ok, get("x"), read("1"), put("y", "2"), "done", get("x"), read("1"), get("y"), read("2")), true},
		{"stale read", seq(put("x", "1"), ok, get("x"), read("")), false},
		{"read of a value never written", seq(get("x"), read("1")), false},
		{"keys are independent", seq(put("x", "1"), ok, get("y"), read("")), true},
		{"append", seq(put("x", "a"), ok, appendOp("x", "b"), ok, get("x"), read("ab")), true},
		{"append order", seq(put("x", "a"), ok, appendOp("x", "b"), ok, get("x"), read("ba")), false},
		{"cas", seq(cas("x", "", "1"), swapped(true), cas("x", "", "2"), swapped(false), get("x"), read("1")), true},
		{"cas that cannot have swapped", seq(put("x", "1"), ok, cas("x", "", "2"), swapped(true)), false},
		{"cas that must have swapped", seq(cas("x", "", "2"), swapped(false)), false},
		// Concurrent operations may take effect in either order.
		{"concurrent put, read new", []step{call(0, put("x", "1")), call(1, get("x")), ret(1, read("1")), ret(0, ok)}, true},
		{"concurrent put, read old", []step{call(0, put("x", "1")), call(1, get("x")), ret(1, read("")), ret(0, ok)}, true},
		{"reads go back in time", []step{
			call(0, put("x", "1")),
			call(1, get("x")), ret(1, read("1")),
			call(2, get("x")), ret(2, read("")),
			ret(0, ok),
		}, false},
		// A pending write may or may not have taken effect, but not both.
		{"pending put seen", []step{call(0, put("x", "1")), call(1, get("x")), ret(1, read("1"))}, true},
		{"pending put not seen", []step{call(0, put("x", "1")), call(1, get("x")), ret(1, read(""))}, true},
		{"pending put seen, then not", []step{
			call(0, put("x", "1")),
			call(1, get("x")), ret(1, read("1")),
			call(1, get("x")), ret(2, read("")),
		}, false},
		{"pending put seen, overwritten", []step{
			call(0, put("x", "1")),
			call(1, get("x")), ret(1, read("1")),
			call(1, put("x", "2")), ret(2, ok),
			call(1, get("x")), ret(3, read("2")),
		}, true},
		{"pending put cannot precede its call", []step{
			call(1, get("x")), ret(0, read("1")),
			call(0, put("x", "1")),
		}, false},
		{"pending get", []step{call(0, put("x", "1")), ret(0, ok), call(1, get("x"))}, true},
		{"pending cas seen", []step{call(0, cas("x", "", "1")), call(1, get("x")), ret(1, read("1"))}, true},
		{"pending cas not seen", []step{call(0, cas("x", "", "1")), call(1, get("x")), ret(1, read(""))}, true},
		{"pending cas cannot swap", []step{
			call(1, put("x", "2")), ret(0, ok),
			call(0, cas("x", "", "1")),
			call(1, get("x")), ret(2, read("1")),
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := run(t, script(c.steps))
			switch {
			case c.legal && f != nil:
				t.Fatalf("linearizable history reported:\n%s", f.Report())
			case !c.legal && f == nil:
				t.Fatal("violation not reported")
			case !c.legal && (f.Kind != "assertion" || !strings.HasPrefix(f.Message, "linearizability: ")):
				t.Fatalf("failure %s: %s", f.Kind, f.Message)
			}
		})
	}
}

// A violation is reported with the number of operations, the longest
// linearizable prefix of the key that has none, and the operations that
// cannot follow it; porcupine's visualisation is attached.
func TestViolationReport(t *testing.T) {
	var steps []step
	steps = append(steps, call(0, put("y", "0")), ret(0, nil))
	for i := 1; i <= 10; i++ {
		steps = append(steps, call(0, put("x", fmt.Sprint(i))), ret(i, nil))
	}
	steps = append(steps,
		call(1, get("x")), ret(11, read("3")),
		call(2, get("x")), // pending
		call(1, get("x")), ret(13, read("10")),
	)
	f := run(t, script(steps))
	if f == nil {
		t.Fatal("no failure")
	}
	// Both reads of x and the pending one must follow the tenth put, and
	// none of them can be linearized after it.
	lines := strings.Split(f.Message, "\n")
	want := []string{
		"linearizability: 14 operations (1 pending) of 3 clients are not linearizable (longest linearizable prefix: 10 of the 13 operations of partition 2 of 2)",
		"linearizable prefix:",
		"    ... 2 earlier operations",
		`    put("x", "3")  [client 0, operation 3: called at 0s (event 7), returned at 0s (event 8)]`,
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("line %d of the message is not %q:\n%s", i, w, f.Message)
		}
	}
	for _, w := range []string{
		"cannot be linearized after it:\n    get(\"x\") → \"3\"  [client 1, operation 11:",
		"get(\"x\") → ?  [client 2, operation 12: called at 0s (event 25), never returned (pending)]",
		"see the attachment linearizability.html",
	} {
		if !strings.Contains(f.Message, w) {
			t.Errorf("message lacks %q:\n%s", w, f.Message)
		}
	}
	if len(f.Attachments) != 1 || f.Attachments[0].Name != "linearizability.html" {
		t.Fatalf("attachments %v", f.Attachments)
	}
	html := string(f.Attachments[0].Data)
	for _, w := range []string{"<!doctype html>", "<title>Porcupine</title>", "const data = ", "render(data)", `get(\"x\") → \"3\"`, "never returned (pending)"} {
		if !strings.Contains(html, w) {
			t.Errorf("visualisation lacks %q", w)
		}
	}
}

// A check that runs out of time is logged, not reported.
func TestUnknown(t *testing.T) {
	slow := porcupine.Model{
		Init: func() any { return 0 },
		StepContext: func(ctx context.Context, state, input, output any) (bool, any) {
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Millisecond):
			}
			return input == output, state
		},
	}
	f := run(t, func(e *morpheus.Env) {
		h := linearize.NewHistory(e)
		var ids []int
		for c := range 8 {
			ids = append(ids, h.Call(c, c))
		}
		for _, id := range ids {
			h.Return(id, id)
		}
		linearize.Check(e, slow, h, linearize.Timeout(time.Millisecond))
		e.Fatalf("end")
	})
	if f == nil || f.Message != "end" || len(f.Logs) != 1 ||
		!strings.Contains(f.Logs[0], "linearizability: the check of 8 operations ran out of time (1ms): result unknown, not reported") {
		t.Fatalf("%v, logs %q", f, f.Logs)
	}
}

// A panic in the model, which runs on porcupine's goroutines, fails the
// iteration as a panic instead of crashing the process.
func TestModelPanics(t *testing.T) {
	bad := porcupine.Model{
		Init: func() any { return 0 },
		Step: func(state, input, output any) (bool, any) { panic("broken model") },
	}
	f := run(t, func(e *morpheus.Env) {
		h := linearize.NewHistory(e)
		h.Return(h.Call(0, 1), 1)
		linearize.Check(e, bad, h)
	})
	if f == nil || f.Kind != "panic" || !strings.Contains(f.Message, "linearize: the model panicked: broken model") {
		t.Fatalf("%v", f)
	}
	f = run(t, func(e *morpheus.Env) {
		h := linearize.NewHistory(e)
		h.Return(h.Call(0, linearize.KVInput{Op: linearize.KVGet}), "oops")
		linearize.Check(e, linearize.KVModel, h)
	})
	if f == nil || f.Kind != "panic" || !strings.Contains(f.Message, "linearize.KVModel: output is string, want linearize.KVOutput or nil") {
		t.Fatalf("%v", f)
	}
}

// Check works for models without partitions, and on histories of a few
// hundred operations in a blink.
func TestLargeHistory(t *testing.T) {
	counter := porcupine.Model{
		Init: func() any { return 0 },
		Step: func(state, input, output any) (bool, any) {
			if input == "inc" {
				return true, state.(int) + 1
			}
			return output == nil || output == state, state
		},
	}
	start := time.Now()
	f := run(t, func(e *morpheus.Env) {
		h := linearize.NewHistory(e)
		n := 0
		for range 100 {
			a, b := h.Call(0, "inc"), h.Call(1, "inc")
			c := h.Call(2, "read")
			h.Return(a, nil)
			h.Return(c, n+1) // a or b first
			h.Return(b, nil)
			n += 2
		}
		h.Call(3, "read")
		linearize.Check(e, counter, h)
	})
	if f != nil {
		t.Fatal(f.Report())
	}
	t.Logf("301 operations checked in %v", time.Since(start))
}
