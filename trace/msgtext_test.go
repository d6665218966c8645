package trace

import (
	"errors"
	"testing"
)

type ping struct{ From string }
type pong struct{ From string }
type code int

type named struct{ n int }

func (n named) String() string { return "named" }

// Two message types with the same fields read apart: a message's text
// carries its type, unless the type formats itself or is Go's own.
func TestMsgText(t *testing.T) {
	for _, c := range []struct {
		m    any
		want string
	}{
		{"hello", "hello"},
		{ping{"client@c0"}, "trace.ping{From:client@c0}"},
		{pong{"client@c0"}, "trace.pong{From:client@c0}"},
		{&ping{"a"}, "&trace.ping{From:a}"},
		{code(3), "trace.code(3)"},
		{7, "7"},
		{[]int{1, 2}, "[1 2]"},
		{struct{ A int }{1}, "{A:1}"},
		{named{1}, "named"},
		{errors.New("boom"), "boom"},
	} {
		if got := msgText(c.m); got != c.want {
			t.Errorf("msgText(%#v) = %q, want %q", c.m, got, c.want)
		}
	}
	tr := &Trace{Msgs: []any{ping{"x"}, nil}}
	if got := tr.MsgText(0); got != "trace.ping{From:x}" {
		t.Errorf("MsgText(0) = %q", got)
	}
	if tr.MsgText(1) != "" || tr.MsgText(2) != "" || tr.MsgText(-1) != "" {
		t.Error("MsgText of no message is not empty")
	}
}
