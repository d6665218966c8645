// Package proto is the tracepoint line protocol spoken between the processes
// of a system under test and morpheus's ordering server (version 1).
//
// A connection carries one request at a time, each a line of at most MaxLine
// bytes ending in '\n':
//
//	client: hello 1 PROCESS          server: ok 1        (first line, always)
//	client: hit NAME [KEY=VALUE...]  server: go          (sent when the server releases the hit)
//	client: bye                      server closes the connection
//
// Anything else (an unknown verb, a bad token, a second hello, a request sent
// while a hit is held) makes the server answer "err MESSAGE" and close the
// connection. PROCESS, NAME, KEY and VALUE are tokens: 1 to MaxToken bytes of
// ASCII letters, digits and "._-/". A hit names a tracepoint; the server keys
// the event as PROCESS:NAME{KEY=VALUE,...}#N, attributes sorted by key and N
// counting earlier events with the same key in the run, so every event of a run
// is distinct.
package proto

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Version is the protocol version this package speaks.
const Version = 1

// Limits of the protocol.
const (
	MaxLine  = 4096 // bytes in a line, '\n' included
	MaxToken = 128  // bytes in a token
	MaxAttrs = 16   // attributes in a hit
)

// Kind is the verb of a client message.
type Kind int

// Client message kinds.
const (
	Hello Kind = iota + 1
	Hit
	Bye
)

func (k Kind) String() string {
	switch k {
	case Hello:
		return "hello"
	case Hit:
		return "hit"
	case Bye:
		return "bye"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Attr is one KEY=VALUE attribute of a hit.
type Attr struct{ Key, Value string }

// Msg is one client message.
type Msg struct {
	Kind    Kind
	Version int    // Hello
	Name    string // Hello: the process; Hit: the tracepoint
	Attrs   []Attr // Hit, in the order sent
}

// Parse decodes one line (without its '\n'). The error says what was
// expected.
func Parse(line string) (Msg, error) {
	if len(line) >= MaxLine {
		return Msg{}, fmt.Errorf("line of %d bytes, expected at most %d", len(line), MaxLine-1)
	}
	f := strings.Split(line, " ")
	switch f[0] {
	case "hello":
		if len(f) != 3 {
			return Msg{}, errors.New(`expected "hello VERSION PROCESS"`)
		}
		v, err := strconv.Atoi(f[1])
		if err != nil || f[1] != strconv.Itoa(v) {
			return Msg{}, fmt.Errorf("hello: version %q is not a number", f[1])
		}
		if v != Version {
			return Msg{}, fmt.Errorf("hello: version %d not supported, expected %d", v, Version)
		}
		if err := checkToken("process", f[2]); err != nil {
			return Msg{}, fmt.Errorf("hello: %v", err)
		}
		return Msg{Kind: Hello, Version: v, Name: f[2]}, nil
	case "hit":
		if len(f) < 2 {
			return Msg{}, errors.New(`expected "hit NAME [KEY=VALUE...]"`)
		}
		if err := checkToken("tracepoint", f[1]); err != nil {
			return Msg{}, fmt.Errorf("hit: %v", err)
		}
		if len(f)-2 > MaxAttrs {
			return Msg{}, fmt.Errorf("hit: %d attributes, expected at most %d", len(f)-2, MaxAttrs)
		}
		m := Msg{Kind: Hit, Name: f[1]}
		for _, a := range f[2:] {
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				return Msg{}, fmt.Errorf("hit: attribute %q: expected KEY=VALUE", a)
			}
			if err := checkToken("attribute key", k); err != nil {
				return Msg{}, fmt.Errorf("hit: %v", err)
			}
			if err := checkToken("attribute value", v); err != nil {
				return Msg{}, fmt.Errorf("hit: %v", err)
			}
			m.Attrs = append(m.Attrs, Attr{k, v})
		}
		return m, nil
	case "bye":
		if len(f) != 1 {
			return Msg{}, errors.New(`expected "bye" alone`)
		}
		return Msg{Kind: Bye}, nil
	}
	return Msg{}, fmt.Errorf("unknown message %q: expected hello, hit or bye", clip(f[0]))
}

// Format encodes m as a line without its '\n'. It is Parse's inverse for
// valid messages.
func Format(m Msg) string {
	switch m.Kind {
	case Hello:
		return "hello " + strconv.Itoa(m.Version) + " " + m.Name
	case Hit:
		var b strings.Builder
		b.WriteString("hit ")
		b.WriteString(m.Name)
		for _, a := range m.Attrs {
			b.WriteByte(' ')
			b.WriteString(a.Key)
			b.WriteByte('=')
			b.WriteString(a.Value)
		}
		return b.String()
	case Bye:
		return "bye"
	}
	return ""
}

// Key is the event key of the n-th (from 0) hit of tracepoint name with attrs
// in process proc: PROC:NAME{K=V,...}#N, attributes sorted by key.
func Key(proc, name string, attrs []Attr, n int) string {
	var b strings.Builder
	b.WriteString(proc)
	b.WriteByte(':')
	b.WriteString(name)
	if len(attrs) > 0 {
		as := append([]Attr(nil), attrs...)
		sort.SliceStable(as, func(i, j int) bool { return as[i].Key < as[j].Key })
		b.WriteByte('{')
		for i, a := range as {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(a.Key)
			b.WriteByte('=')
			b.WriteString(a.Value)
		}
		b.WriteByte('}')
	}
	b.WriteByte('#')
	b.WriteString(strconv.Itoa(n))
	return b.String()
}

// ValidToken reports whether s is a valid token.
func ValidToken(s string) bool { return checkToken("", s) == nil }

func checkToken(what, s string) error {
	if s == "" {
		return fmt.Errorf("empty %s, expected 1 to %d of [A-Za-z0-9._-/]", what, MaxToken)
	}
	if len(s) > MaxToken {
		return fmt.Errorf("%s of %d bytes, expected at most %d", what, len(s), MaxToken)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '/') {
			return fmt.Errorf("%s %q: byte %q at %d, expected [A-Za-z0-9._-/]", what, clip(s), c, i)
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
