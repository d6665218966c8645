package proto

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that what it accepts formats
// back to the same line, and that every accepted name is a valid token.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"hello 1 coord", "hit send to=w2", "bye", "hit", "hello 1", "hit a b=c=d", "\x00", "hit x k=v k=v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := Parse(line)
		if err != nil {
			if m.Kind != 0 {
				t.Fatalf("error %v with a message %+v", err, m)
			}
			return
		}
		if got := Format(m); got != line {
			t.Fatalf("Format(Parse(%q)) = %q", line, got)
		}
		if m.Kind != Bye && !ValidToken(m.Name) {
			t.Fatalf("accepted invalid name %q", m.Name)
		}
		for _, a := range m.Attrs {
			if !ValidToken(a.Key) || !ValidToken(a.Value) || strings.Contains(a.Key, "=") {
				t.Fatalf("accepted invalid attribute %+v", a)
			}
		}
		again, err := Parse(Format(m))
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("round trip of %+v: %+v, %v", m, again, err)
		}
	})
}
