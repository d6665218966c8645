package morpheus_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// TestReportLeadsWithKeyEvents: a liveness failure after a crash (a client
// retrying a ping to a server Chaos crashed, for a virtual minute) reports
// its key events first, and its 600 rounds of retries as one folded line,
// so that the crash is on screen.
func TestReportLeadsWithKeyEvents(t *testing.T) {
	src := mtest.PingLiveness
	opts := append(append([]morpheus.Option{}, src.Options...), morpheus.ClockLimit(time.Minute), morpheus.Iterations(200), morpheus.Workers(1), morpheus.Seed(1), morpheus.Shrink(0))
	res, err := morpheus.Explore(src.Test, opts...)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "liveness" {
		t.Fatalf("failure %v, want a liveness failure", f)
	}
	out := f.Report()
	for _, re := range []string{
		`(?m)^key events:\n    step [0-9]+ at 0\.000s, client@n1: monitor pong is hot from here on, in state "waiting"\n`,
		`(?m)^    step [0-9]+ at [0-9.]+s, chaos: node 1 crashes, killing server@n2$`,
		`(?m)^    step [0-9]+ at [0-9.]+s, [^ ]+: last progress \([a-z-]+\); then the run repeats one cycle to its end, × [0-9]+: client@n1 recv timeout; client@n1 send → server@n2 dropped$`,
		`(?m)^(trace|last 30 lines), repeated cycles folded:`,
		`(?m)^ +[0-9]+ +[0-9.]+s +chaos +crash +node 1 `,
		`(?m)^ +[0-9]+ +[0-9.]+s +× [0-9]+: client@n1 recv timeout; client@n1 send → server@n2 dropped \(to step [0-9]+ at 60\.000s\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("report does not match %s:\n%s", re, out)
		}
	}
	if n := strings.Count(out, "\n"); n > 40 {
		t.Errorf("report of %d lines:\n%s", n, out)
	}
	// full still shows every step.
	if full := f.FullReport(); strings.Count(full, "recv    timeout") < 500 || strings.Contains(full, "key events:") {
		t.Error("the full report folds or leads with key events")
	}
}
