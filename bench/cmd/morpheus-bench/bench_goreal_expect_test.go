package main

import (
	"strings"
	"testing"
)

// The built-in expectations parse; bad lines name file:line and what was
// expected; a listed failure of a fixed version is no false alarm, another
// kind or line is.
func TestRealExpect(t *testing.T) {
	expect, err := parseRealExpect("benchdata/goreal-expect.txt", defaultRealExpect)
	if err != nil || len(expect) == 0 {
		t.Fatalf("built-in: %v, %d lines", err, len(expect))
	}
	for _, c := range []struct{ text, want string }{
		{"grpc_1 race", "f.txt:1: expected BUG KIND LOCATION EVIDENCE, found 2 field(s)"},
		{"# c\ngrpc race a.go:1 evidence\ngrpc_2 race a.go evidence", "f.txt:2: expected a bug name as GoBench names it"},
		{"grpc_2 race a.go evidence", `f.txt:1: expected a location FILE.go:LINE, found "a.go"`},
		{"grpc_2 race a.go:3 e\ngrpc_2 race a.go:3 e", "f.txt:2: grpc_2 is already listed at line 1"},
	} {
		if _, err := parseRealExpect("f.txt", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	x := []realExpectation{{Bug: "grpc_9", Kind: "assertion", Location: "a_test.go:7", Evidence: "plain Go"}}
	row := &realRow{Name: "grpc_9", FixedFailures: 1, FixedKind: "assertion", FixedLocation: "a_test.go:7"}
	if row.FixedKnown = knownFixedFailure(x, row); row.FixedKnown != "plain Go" || row.falseAlarm() {
		t.Errorf("listed: known %q, false alarm %v", row.FixedKnown, row.falseAlarm())
	}
	row.FixedLocation = "a_test.go:8"
	if row.FixedKnown = knownFixedFailure(x, row); row.FixedKnown != "" || !row.falseAlarm() {
		t.Errorf("another line: known %q, false alarm %v", row.FixedKnown, row.falseAlarm())
	}
}
