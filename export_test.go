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
