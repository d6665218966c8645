package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// The assertions shared with the other packages' tests (internal/mtest).
var (
	explore  = mtest.Explore
	mustPass = mtest.MustPass
	mustFail = mtest.MustFail
)

// count runs test for n iterations counting those whose failure satisfies
// hit; it fails t if any other failure happens.
func count(t *testing.T, test func(*morpheus.Env), n int, hit func(kind, msg string) bool, opts ...morpheus.Option) int {
	t.Helper()
	res := explore(t, test, append([]morpheus.Option{morpheus.Iterations(n), mtest.CountHits(hit)}, opts...)...)
	failures, hits := mtest.Counts(res)
	if failures != hits {
		t.Fatalf("%d failures, only %d expected ones; first:\n%s", failures, hits, res.Failure.Report())
	}
	return hits
}
