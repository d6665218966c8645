package explore

import "time"

// BudgetNow is the clock of the Duration budget. Only how many iterations
// start depends on it, never what an iteration does; tests replace it to end
// a budget at a moment they choose.
var BudgetNow = time.Now
