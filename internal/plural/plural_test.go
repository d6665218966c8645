package plural

import "testing"

func TestN(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "failure", "0 failures"},
		{1, "failure", "1 failure"},
		{2, "failure", "2 failures"},
		{1, "iteration", "1 iteration"},
		{3, "process", "3 processes"},
		{2, "entry", "2 entries"},
		{2, "key", "2 keys"},
		{2, "match", "2 matches"},
		{2, "partial order", "2 partial orders"},
		{1, "partial order", "1 partial order"},
	} {
		if got := N(c.n, c.noun); got != c.want {
			t.Errorf("N(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := N(int64(1), "step"); got != "1 step" {
		t.Errorf("N(int64(1)) = %q", got)
	}
	if got := N(uint64(5), "step"); got != "5 steps" {
		t.Errorf("N(uint64(5)) = %q", got)
	}
	if got := Of(1, "schedule"); got != "schedule" {
		t.Errorf("Of(1) = %q", got)
	}
}
