package trace_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// errHead is a valid header with three tasks; the first line after it is line 9.
const errHead = `morpheus-trace 1
test T
strategy random
seed 1
iteration 2
task 0 parent=-1 key=0x1 name="main"
task 1 parent=0 key=0x2 name="a"
task 2 parent=0 key=0x3 name="b"
`

// TestDecodeErrors has one case per class of malformed input. Each checks
// that the error names the file, the line and the field, in the form
// NAME:LINE: FIELD: expected WHAT, got ...
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		line  int
		field string
		msg   string // a part of the message after "FIELD: "
	}{
		// File level.
		{"empty file", "", 1, "header", `expected "morpheus-trace <version>", got end of file`},
		{"not a trace", "hello\n", 1, "header", `got "hello"`},
		{"version", "morpheus-trace 2\n", 1, "version", `got "2"`},
		{"version missing", "morpheus-trace\n", 1, "header", `got "morpheus-trace"`},
		{"invalid UTF-8", errHead + "s 1 t0 start at=\"\xff\"\n", 9, "line", "expected UTF-8 text"},
		{"long line", errHead + "s 1 t0 start msg=\"" + strings.Repeat("x", 1<<20) + "\"\nend\n", 9, "line", "expected at most 1048576 bytes"},
		{"long last line", errHead + strings.Repeat("#", 1<<20+1), 9, "line", "expected at most 1048576 bytes"},
		{"unknown line", errHead + "frob 1\n", 9, "line", `got "frob 1"`},
		{"keyword quoted", errHead + "\"s\" 1\n", 9, "line", "expected a line keyword"},
		{"missing end", errHead + "s 1 t0 start\n", 10, "end", `expected "end" line, got end of file`},
		{"end with fields", errHead + "end now\n", 9, "end", `got "end now"`},
		{"after end", errHead + "end\ns 1 t0 start\n", 10, "end", `expected nothing after the end line, got "s 1 t0 start"`},

		// Header lines.
		{"missing test", "morpheus-trace 1\nseed 1\n", 2, "test", `expected "test <name>", got "seed 1"`},
		{"missing seed", "morpheus-trace 1\ntest T\niteration 2\n", 3, "seed", `got "iteration 2"`},
		{"missing iteration at end", "morpheus-trace 1\ntest T\nseed 1\n", 4, "iteration", "got end of file"},
		{"missing iteration before task", "morpheus-trace 1\ntest T\nseed 1\ntask 0\n", 4, "iteration", `got "task 0"`},
		{"duplicate test", "morpheus-trace 1\ntest T\ntest U\n", 3, "test", `expected one test line, got "test U"`},
		{"duplicate version", "morpheus-trace 1\nmorpheus-trace 1\n", 2, "morpheus-trace", "expected one morpheus-trace line"},
		{"header order", "morpheus-trace 1\ntest T\nseed 1\nstrategy random\n", 4, "strategy", "expected header lines first, in the order"},
		{"header after tasks", errHead + "failure panic\n", 9, "failure", "expected header lines first, in the order"},
		{"test with spaces", "morpheus-trace 1\ntest a b\n", 2, "test", `got "test a b"`},
		{"test bad name", "morpheus-trace 1\ntest a\\b\n", 2, "test", `expected a name or a quoted string, got "a\\b"`},
		{"seed", "morpheus-trace 1\ntest T\nseed -1\n", 3, "seed", `expected a 64-bit unsigned integer, got "-1"`},
		{"iteration", "morpheus-trace 1\ntest T\nseed 1\niteration 1e3\n", 4, "iteration", `got "1e3"`},
		{"failure kind", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nfailure\n", 5, "failure", `got "failure"`},
		{"failure unknown key", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nfailure panic where=1\n", 5, "failure",
			`expected one of the keys task, step, limit, at, msg, got "where=1"`},
		{"failure step", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nfailure panic step=-1\n", 5, "step", `got "-1"`},
		{"failure msg unquoted", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nfailure panic msg=boom\n", 5, "msg",
			`expected a quoted string, got "msg=boom"`},

		{"ran short", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A\n", 5, "ran", `got "ran A"`},
		{"ran unknown key", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A seed=1 schedules=2 budget=3\n", 5, "ran",
			"expected one of the keys replay, seed, strategy, shard, schedules, shrink, real"},
		{"ran no schedules", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A seed=1 shrink=2\n", 5, "ran",
			"expected an exploration's seed= and schedules="},
		{"ran replay and seed", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A replay=\"p\" seed=1\n", 5, "ran",
			"expected replay= alone"},
		{"ran real and seed", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A real=\"net\" seed=1 schedules=2\n", 5, "ran",
			"expected real= alone"},
		{"ran real empty", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A real=\"\"\n", 5, "real", "expected what the test reached"},
		{"ran replay empty", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A replay=\"\"\n", 5, "replay", "expected a trace's path"},
		{"ran schedules negative", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A seed=1 schedules=-2\n", 5, "schedules", `got "-2"`},
		{"ran shard", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A seed=1 schedules=2 shard=2/2\n", 5, "shard", "K/M with 0 <= K < M"},
		{"ran after failure", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nfailure panic\nran A seed=1 schedules=2\n", 6, "ran",
			"expected header lines first, in the order"},
		{"ran before options", "morpheus-trace 1\ntest T\nseed 1\niteration 1\nran A seed=1 schedules=2\noptions a=b\n", 6, "options",
			"expected header lines first, in the order"},

		// Task lines.
		{"task order", errHead + "task 4\n", 9, "task", `expected task 3 (tasks are listed in ID order from 0), got "4"`},
		{"task after step", errHead + "s 1 t0 start\ntask 3\n", 10, "task", "expected task lines before the first step"},
		{"task duplicate key", errHead + "task 3 name=\"x\" name=\"y\"\n", 9, "name", `expected one name= field, got "name=\"y\""`},
		{"task unknown key", errHead + "task 3 color=red\n", 9, "task", `got "color=red"`},
		{"task bare field", errHead + "task 3 red\n", 9, "task", `expected key=value, got "red"`},
		{"task key", errHead + "task 3 key=12\n", 9, "key", `expected 0x<hex>, got "key=12"`},
		{"task key overflow", errHead + "task 3 key=0x10000000000000000\n", 9, "key", "at most 64 bits"},
		{"task parent", errHead + "task 3 parent=7\ns 1 t0 start\n", 9, "parent", `expected a task number -1..3, got "7"`},
		{"task parent negative", errHead + "task 3 parent=-2\n", 9, "parent", `got "-2"`},
		{"task name unquoted", errHead + "task 3 name=x\n", 9, "name", "expected a quoted string"},

		// Step lines.
		{"step short", errHead + "s 1 t0\n", 9, "step", `got "s 1 t0"`},
		{"step number", errHead + "s 1 t0 start\ns 3 t0 exit\n", 10, "step", `expected step 2 (steps count from 1 without gaps), got "3"`},
		{"step task range", errHead + "s 1 t9 start\n", 9, "task", `expected t<number> < 3 tasks, got "t9"`},
		{"step task runtime", errHead + "s 1 t-1 start\n", 9, "task", `got "t-1"`},
		{"step task form", errHead + "s 1 0 start\n", 9, "task", `got "0"`},
		{"kind unknown", errHead + "s 1 t0 frob\n", 9, "kind", `expected an op kind, got "frob"`},
		{"kind invalid", errHead + "s 1 t0 invalid\n", 9, "kind", `got "invalid"`},
		{"kind clock", errHead + "s 1 t0 clock val=5\n", 9, "kind", "clock events are clock lines"},
		{"obj range", errHead + "s 1 t0 spawn obj=3\n", 9, "obj", `expected a task number -1..2, got "3"`},
		{"obj number", errHead + "s 1 t0 spawn obj=one\n", 9, "obj", `expected a 32-bit integer, got "one"`},
		{"res overflow", errHead + "s 1 t0 yield res=4294967296\n", 9, "res", "expected a 32-bit unsigned integer"},
		{"val quoted", errHead + "s 1 t0 choose val=\"1\"\n", 9, "val", "expected a 64-bit integer"},
		{"flags unknown", errHead + "s 1 t0 recv flags=read,late\n", 9, "flags", `expected read, timeout, dropped, fault, duplicated or delayed, got "late"`},
		{"flags empty", errHead + "s 1 t0 recv flags=\n", 9, "flags", `got ""`},
		{"step unknown key", errHead + "s 1 t0 start color=red\n", 9, "step", "expected one of the keys obj, res, val, flags, at, msg"},
		{"step duplicate key", errHead + "s 1 t0 start at=\"a\" at=\"b\"\n", 9, "at", "expected one at= field"},
		{"at unterminated", errHead + "s 1 t0 start at=\"a.go:1\n", 9, "at", "expected a closing quote"},
		{"at escape", errHead + "s 1 t0 start at=\"a\\q\"\n", 9, "at", "expected a Go-quoted string"},
		{"at glued", errHead + "s 1 t0 start at=\"a\"b\n", 9, "at", "expected a space after the closing quote"},
		{"at unquoted", errHead + "s 1 t0 start at=a.go:1\n", 9, "at", "expected a quoted string"},
		{"msg on spawn", errHead + "s 1 t0 spawn val=0 msg=\"m\"\n", 9, "msg", "expected msg only on a send, timer or receive step"},
		{"msg id negative", errHead + "s 1 t0 send val=-1 msg=\"m\"\n", 9, "val", `expected a message id 0..16777216 on a step with msg, got "-1"`},
		{"msg id too big", errHead + "s 1 t0 send val=16777217 msg=\"m\"\n", 9, "val", `got "16777217"`},
		{"msg conflict", errHead + "s 1 t0 send val=1 msg=\"m\"\ns 2 t0 send val=1 msg=\"n\"\n", 10, "msg",
			"expected the text of the earlier send of message 1"},

		// Clock lines.
		{"clock value", errHead + "clock soon\n", 9, "clock", `expected a 64-bit integer, got "soon"`},
		{"clock fields", errHead + "clock 1 2\n", 9, "clock", `got "clock 1 2"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := trace.Decode(strings.NewReader(tc.in), "x.trace")
			if err == nil {
				t.Fatalf("Decode succeeded with %d events, want an error", len(tr.Events))
			}
			var fe *trace.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			if fe.File != "x.trace" || fe.Line != tc.line || fe.Field != tc.field {
				t.Errorf("error at %s:%d field %q, want x.trace:%d field %q: %v", fe.File, fe.Line, fe.Field, tc.line, tc.field, err)
			}
			prefix := fe.File + ":" + strconv.Itoa(fe.Line) + ": " + fe.Field + ": expected "
			if s := err.Error(); !strings.HasPrefix(s, prefix) || !strings.Contains(s, ", got ") || !strings.Contains(s, tc.msg) {
				t.Errorf("error %q, want one starting %q and containing %q", s, prefix, tc.msg)
			}
		})
	}
}
