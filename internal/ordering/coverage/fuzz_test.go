package coverage

import (
	"strings"
	"testing"
)

// FuzzParseRule: no panics; an accepted rule names two events with an
// occurrence and parses back from its own String.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"coord:start<w1:start", "a:b#1 < c:d", "a<b", "x:y<", "a:b<c:d<e:f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		if !strings.Contains(r.Before, "#") || !strings.Contains(r.After, "#") {
			t.Fatalf("%q: rule %+v without occurrences", s, r)
		}
		again, err := ParseRule(r.Before + "<" + r.After)
		if err != nil || again != r {
			t.Fatalf("%q: %+v does not parse back: %+v, %v", s, r, again, err)
		}
	})
}
