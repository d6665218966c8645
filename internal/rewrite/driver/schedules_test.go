package driver

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
)

// A package's schedules count its Checks' iterations: a package of Checks
// alone ran 0 rewritten schedules, not 0 in all.
func TestSchedulesCountChecks(t *testing.T) {
	p := &PackageSummary{Tests: []*TestSummary{{Schedules: 3}}, Checks: []*results.Record{{Iterations: 100}}, Elapsed: time.Second}
	if n, rate := p.Schedules(); n != 103 || rate != 103 {
		t.Errorf("Schedules() = %d, %v, want 103, 103", n, rate)
	}
}
