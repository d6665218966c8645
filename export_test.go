package morpheus

import "time"

// SetBudgetClock replaces the clock of the Duration budget until restore is
// called; no exploration may run meanwhile but the caller's.
func SetBudgetClock(now func() time.Time) (restore func()) {
	old := budgetNow
	budgetNow = now
	return func() { budgetNow = old }
}
