package morpheus

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/explore"
)

// SetBudgetClock replaces the clock of the Duration budget until restore is
// called; no exploration may run meanwhile but the caller's.
func SetBudgetClock(now func() time.Time) (restore func()) {
	old := explore.BudgetNow
	explore.BudgetNow = now
	return func() { explore.BudgetNow = old }
}

// SetHeapLimit replaces the heap growth at which a run under a TimeLimit
// cuts its iterations until restore is called; no exploration may run
// meanwhile but the caller's.
func SetHeapLimit(n uint64) (restore func()) {
	old := explore.HeapLimit
	explore.HeapLimit = n
	return func() { explore.HeapLimit = old }
}

// Rebuilt returns how many failing iterations so far had their trace
// rebuilt by replaying their schedule (core.Config.Window).
func Rebuilt() int64 { return explore.Rebuilt.Load() }

// FullReport is the report with the whole trace, as -morpheus.verbose=2
// prints it.
func (f *Failure) FullReport() string { return f.report(true, "") }
