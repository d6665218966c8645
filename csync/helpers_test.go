package csync_test

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
)

// explore runs test with opts and fails t on a configuration error.
func explore(t *testing.T, test func(*morpheus.Env), opts ...morpheus.Option) *morpheus.Result {
	t.Helper()
	res, err := morpheus.Explore(test, append([]morpheus.Option{morpheus.Name(t.Name())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// mustPass fails t if the exploration found a failure.
func mustPass(t *testing.T, res *morpheus.Result) {
	t.Helper()
	if res.Failure != nil {
		t.Fatalf("unexpected failure:\n%s", res.Failure.Report(false, ""))
	}
}

// mustFail fails t unless the exploration found a failure of the given kind
// whose message contains msg.
func mustFail(t *testing.T, res *morpheus.Result, kind, msg string) *morpheus.Failure {
	t.Helper()
	f := res.Failure
	if f == nil {
		t.Fatalf("no failure in %d iterations; want %s %q", res.Iterations, kind, msg)
	}
	if f.Kind != kind || !strings.Contains(f.Message, msg) {
		t.Fatalf("failure %s %q; want %s containing %q\n%s", f.Kind, f.Message, kind, msg, f.Report(false, ""))
	}
	return f
}

// count runs test for n iterations counting those whose failure satisfies
// hit; it fails t if any other failure happens.
func count(t *testing.T, test func(*morpheus.Env), n int, hit func(kind, msg string) bool, opts ...morpheus.Option) int {
	t.Helper()
	res := explore(t, test, append([]morpheus.Option{morpheus.Iterations(n), morpheus.CountHits(hit)}, opts...)...)
	if res.Failures != res.Hits {
		t.Fatalf("%d failures, only %d expected ones; first:\n%s", res.Failures, res.Hits, res.Failure.Report(false, ""))
	}
	return res.Hits
}
