package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	var out bytes.Buffer
	fs := NewFlagSet("x", "x [-n N]", &out)
	n := fs.Int("n", 1, "how many")
	if err := Parse(fs, []string{"-n", "3"}, nil); err != nil || *n != 3 {
		t.Fatalf("Parse -n 3: %v, n=%d", err, *n)
	}
	out.Reset()
	err := Parse(fs, []string{"-v"}, func(*flag.FlagSet, error) string { return "hint: no -v" })
	if !errors.Is(err, ErrUsage) {
		t.Errorf("a bad flag: %v, want ErrUsage", err)
	}
	if s := out.String(); !strings.Contains(s, "hint: no -v") || !strings.Contains(s, `Run "morpheus x -h"`) || strings.Contains(s, "Usage:") {
		t.Errorf("a bad flag printed %q: want its error, the hint and where the help is, no help", s)
	}
	out.Reset()
	if err := Parse(fs, []string{"-h"}, nil); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "Usage: morpheus x [-n N]") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
}

func TestExit(t *testing.T) {
	fail := errors.New("boom")
	for _, c := range []struct {
		err         error
		interrupted bool
		code        int
		printed     string
	}{
		{nil, false, 0, ""},
		{flag.ErrHelp, false, 0, ""},
		{ErrUsage, false, 2, ""},
		{fail, false, 1, "morpheus t: boom\n"},
		{nil, true, 130, "morpheus t: interrupted"},
		{fail, true, 130, "morpheus t: boom\nmorpheus t: interrupted"},
	} {
		var out bytes.Buffer
		if code := Exit("t", c.err, c.interrupted, &out); code != c.code || !strings.HasPrefix(out.String(), c.printed) || (c.printed == "" && out.Len() > 0) {
			t.Errorf("Exit(%v, %v) = %d, printed %q; want %d, %q", c.err, c.interrupted, code, out.String(), c.code, c.printed)
		}
	}
}
