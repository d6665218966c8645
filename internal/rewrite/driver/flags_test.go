package driver

import "testing"

func TestParseSeed(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		err  bool
	}{{"", 0, false}, {"7", 7, false}, {"0x10", 16, false}, {"x", 0, true}, {"-1", 0, true}} {
		got, err := ParseSeed(c.in)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("ParseSeed(%q) = %d, %v", c.in, got, err)
		}
	}
	if r, err := ParseSeed("random"); err != nil || r&1 != 1 {
		t.Errorf("ParseSeed(random) = %d, %v: want an odd seed", r, err)
	}
	if EarlyTimers(0) != 0 || EarlyTimers(-1) != -1 || EarlyTimers(-3) != -1 || EarlyTimers(2) != 2 {
		t.Error("EarlyTimers: 0 is rt's default (0), below the portfolio (-1), N stays N")
	}
}
