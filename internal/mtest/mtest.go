// Package mtest holds the assertions the project's own tests make about
// explorations (run one, require it to pass, require a particular failure)
// and the programs they explore: known bugs with their fixes, known correct
// programs (fixtures.go; those the benchmarks run too are in
// internal/programs).
package mtest

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/trace"
)

// Untimed lifts shrinking's wall-clock budget (10 s by default), for tests
// that compare reported traces across runs: on a busy machine the budget can
// end shrinking early, and the reported trace would then depend on the
// machine's speed rather than on the seed.
var Untimed = morpheus.ShrinkTime(time.Hour)

// Explore runs test with opts, named after t, and fails t on a configuration
// error.
func Explore(t *testing.T, test func(*morpheus.Env), opts ...morpheus.Option) *morpheus.Result {
	t.Helper()
	res, err := morpheus.Explore(test, append([]morpheus.Option{morpheus.Name(t.Name())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// MustPass fails t if the exploration found a failure.
func MustPass(t *testing.T, res *morpheus.Result) {
	t.Helper()
	if res.Failure != nil {
		t.Fatalf("unexpected failure:\n%s", res.Failure.Report())
	}
}

// MustFail fails t unless the exploration found a failure of the given kind
// whose message contains msg, and returns it.
func MustFail(t *testing.T, res *morpheus.Result, kind, msg string) *morpheus.Failure {
	t.Helper()
	f := res.Failure
	if f == nil {
		t.Fatalf("no failure in %d iterations; want %s %q", res.Iterations, kind, msg)
	}
	if f.Kind != kind || !strings.Contains(f.Message, msg) {
		t.Fatalf("failure %s %q; want %s containing %q\n%s", f.Kind, f.Message, kind, msg, f.Report())
	}
	return f
}

// Encode returns tr in the trace file format, failing t on an error: two
// runs are the same when their encodings are equal byte for byte.
func Encode(t *testing.T, tr *trace.Trace) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := trace.Encode(&b, tr); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
