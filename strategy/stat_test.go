package strategy_test

import (
	"math"
	"testing"
)

// near fails t unless the frequency got, measured over n runs, is within 5
// standard deviations of the probability want: a correct strategy fails this
// about once in 2 million runs of the test, while the wrong probabilities the
// tests tell apart are further apart than that.
func near(t *testing.T, what string, got, want float64, n int) {
	t.Helper()
	sd := math.Sqrt(want * (1 - want) / float64(n))
	if math.Abs(got-want) > 5*sd {
		t.Errorf("%s: frequency %.4f over %d runs, want %.4f ± %.4f (5σ)", what, got, n, want, 5*sd)
	}
}
