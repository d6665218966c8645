package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// TestFailureClockLimit: a shrunk liveness failure's clock limit survives
// a round trip; a trace without one writes no limit field; a bad limit is
// an error naming the field.
func TestFailureClockLimit(t *testing.T) {
	const text = "morpheus-trace 1\ntest T\nseed 1\niteration 0\nfailure liveness task=-1 step=1 limit=300000000 msg=\"m\"\ntask 0 parent=-1 key=0x0 name=\"main\"\ns 1 t0 start\nend\n"
	tr := mustDecode(t, text)
	if got := tr.Header.Failure.ClockLimit; got != 300_000_000 {
		t.Fatalf("decoded limit %d, want 300000000", got)
	}
	var b bytes.Buffer
	if err := trace.Encode(&b, tr); err != nil {
		t.Fatal(err)
	}
	if b.String() != text {
		t.Errorf("round trip:\n%s\nwant:\n%s", b.String(), text)
	}
	tr.Header.Failure.ClockLimit = 0
	b.Reset()
	if err := trace.Encode(&b, tr); err != nil || strings.Contains(b.String(), "limit=") {
		t.Errorf("a trace without a cut limit writes %q (%v)", b.String(), err)
	}
	tr.Header.Failure.ClockLimit = -1
	if err := trace.Encode(&b, tr); err == nil {
		t.Error("a negative limit was encoded")
	}
	for _, bad := range []string{"limit=0", "limit=-5", "limit=x", `limit="1"`, "limit=1 limit=2"} {
		in := strings.Replace(text, "limit=300000000", bad, 1)
		_, err := trace.Decode(strings.NewReader(in), "x.trace")
		if err == nil || !strings.Contains(err.Error(), "x.trace:5: limit:") {
			t.Errorf("%s: error %v, want one at x.trace:5 naming limit", bad, err)
		}
	}
}
