package proto

import (
	"bufio"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	cases := []struct {
		line string
		want Msg
	}{
		{"hello 1 coord", Msg{Kind: Hello, Version: 1, Name: "coord"}},
		{"hit send", Msg{Kind: Hit, Name: "send"}},
		{"hit send to=w2 n=3", Msg{Kind: Hit, Name: "send", Attrs: []Attr{{"to", "w2"}, {"n", "3"}}}},
		{"bye", Msg{Kind: Bye}},
	}
	for _, c := range cases {
		got, err := Parse(c.line)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.line, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Fatalf("Parse(%q) = %+v, want %+v", c.line, got, c.want)
		}
		if f := Format(got); f != c.line {
			t.Fatalf("Format(Parse(%q)) = %q", c.line, f)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"":                                       "unknown message",
		"hello":                                  "expected \"hello VERSION PROCESS\"",
		"hello 2 a":                              "version 2 not supported, expected 1",
		"hello x a":                              "not a number",
		"hello 01 a":                             "not a number",
		"hello 1 a b":                            "expected \"hello VERSION PROCESS\"",
		"hello 1 a:b":                            "expected [A-Za-z0-9._-/]",
		"hit":                                    "expected \"hit NAME",
		"hit  x":                                 "empty tracepoint",
		"hit x y":                                "attribute \"y\": expected KEY=VALUE",
		"hit x =v":                               "empty attribute key",
		"hit x k=":                               "empty attribute value",
		"hit x k=v\r":                            "byte '\\r'",
		"bye now":                                "expected \"bye\" alone",
		"HIT x":                                  "unknown message \"HIT\"",
		strings.Repeat("a", MaxLine):             "expected at most",
		"hit " + strings.Repeat("a", MaxToken+1): "tracepoint of 129 bytes",
		"hit x" + strings.Repeat(" k=v", MaxAttrs+1): "17 attributes",
	}
	for line, want := range cases {
		_, err := Parse(line)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.30q) error %v, want it to contain %q", line, err, want)
		}
	}
}

func TestKey(t *testing.T) {
	got := Key("w1", "send", []Attr{{"to", "c"}, {"n", "2"}}, 3)
	if want := "w1:send{n=2,to=c}#3"; got != want {
		t.Fatalf("Key = %q, want %q", got, want)
	}
	if got := Key("c", "start", nil, 0); got != "c:start#0" {
		t.Fatalf("Key = %q", got)
	}
}

func TestReadLine(t *testing.T) {
	r := NewReader(strings.NewReader("hello 1 a\nhit x\nhalf"))
	for _, want := range []string{"hello 1 a", "hit x"} {
		got, err := ReadLine(r)
		if err != nil || got != want {
			t.Fatalf("ReadLine = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := ReadLine(r); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("cut line: %v, want unexpected EOF", err)
	}
	if _, err := ReadLine(r); !errors.Is(err, io.EOF) {
		t.Fatalf("after end: %v, want EOF", err)
	}
	long := NewReader(strings.NewReader(strings.Repeat("x", 2*MaxLine) + "\n"))
	if _, err := ReadLine(long); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("long line: %v", err)
	}
	_ = bufio.ErrBufferFull
}
