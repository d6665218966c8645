package driver

import (
	"slices"
	"testing"
)

// -vet takes go test's values: go test's analyzers by default, off, all
// (no analyzer flag: every one), or a list; the rest is a usage error.
func TestParseVet(t *testing.T) {
	for _, c := range []struct {
		in    string
		off   bool
		flags []string
		bad   bool
	}{
		{in: "", flags: []string{"-atomic", "-bool", "-buildtags", "-directive", "-errorsas", "-ifaceassert",
			"-nilfunc", "-printf", "-slog", "-stringintconv", "-tests"}},
		{in: "off", off: true},
		{in: "all"},
		{in: "atomic,bool", flags: []string{"-atomic", "-bool"}},
		{in: "atomic,", bad: true},
		{in: "off,atomic", bad: true},
		{in: "atomic,all", bad: true},
		{in: "printf=false", bad: true},
		{in: "atomic, bool", bad: true},
	} {
		s, err := parseVet(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("-vet=%q: no error", c.in)
			}
			continue
		}
		if err != nil || s.off != c.off || !slices.Equal(s.flags(), c.flags) {
			t.Errorf("-vet=%q: off %v, flags %q, %v; want off %v, flags %q", c.in, s.off, s.flags(), err, c.off, c.flags)
		}
	}
}
