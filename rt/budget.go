package rt

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
)

// A rewritten test's budget: how many schedules it gets and for how long.
// By default it gets DefaultSchedules schedules (split over the driver's
// processes) and a time budget scaled by its own first schedule: the
// exploration is capped at max(DefaultBudgetFloor, DefaultBudgetFactor ×
// the first schedule's time), a schedule starting only if, as long as the
// mean of those before, it ends within the cap. A test whose schedule
// takes 1 ms runs its 100 schedules; one whose schedule takes a second runs
// DefaultBudgetFactor of them in each process, in about that many seconds. Time decides only how many schedules
// run, never what a schedule does: schedule i of seed s is the same in
// every run. A test also ends by DefaultBudgetLimit, or once its process's
// heap has grown by 2 GiB: the schedule running then is cut (it neither passes nor fails, and is not counted; the record
// says "budget-cut"), and after the first schedule none starts that would
// likely run past it. So a test whose single schedule takes minutes (a
// worker-pool test submitting 100,000 tasks, on a busy machine) gets its
// verdict, the schedules that completed, within about a minute, and the
// package's later tests are reached. EnvSchedules, EnvDuration and
// EnvBudget override it (morpheus test's -iterations and -duration turn the
// scaled budget and its limit off).
//
// Why these numbers (BENCHMARKS.md, "Budget"): GoKer's kernels fail in
// their first schedules (all but one of 98 within nine, each in well under
// the floor), so the floor keeps what 100 schedules find; a real suite's
// slow tests (jackc/puddle's, seconds a schedule) would take minutes each
// at 100, while go test -race runs each once: three times the first
// schedule keeps them within a few times that.
const (
	DefaultSchedules    = 100
	DefaultBudgetFloor  = time.Second
	DefaultBudgetFactor = 3
	DefaultBudgetLimit  = time.Minute
)

// EnvDuration is a wall-clock budget per test and process (morpheus test
// -duration): no schedule starts once the test has explored that long.
const EnvDuration = "MORPHEUS_RT_DURATION"

// EnvBudget is the time budget scaled by the first schedule and its limit:
// "FLOOR,FACTOR" or "FLOOR,FACTOR,LIMIT" (as "1s,3,1m", the default; a
// LIMIT of 0 is none), or "off" (neither).
const EnvBudget = "MORPHEUS_RT_BUDGET"

// Why a rewritten test's exploration stopped (Result.Stopped).
const (
	StopFailure     = "failure"          // a schedule failed (or a saved trace still fails)
	StopTime        = "budget-time"      // the time budget was spent
	StopSchedules   = "budget-schedules" // every schedule asked for ran
	StopExhausted   = "exhausted"        // a systematic strategy (dfs) explored every schedule
	StopInterrupted = "interrupted"      // a SIGINT or SIGTERM
	StopCut         = "budget-cut"       // the budget's limit came during a schedule, which was cut
)

// budgetOptions returns the options of the test's budget: its schedules
// (0: unlimited) and time limits.
func budgetOptions() ([]morpheus.Option, error) {
	n := DefaultSchedules
	if s := getenv(EnvSchedules); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 0 {
			return nil, fmt.Errorf("%s=%q: want a number >= 0 (0: unlimited)", EnvSchedules, s)
		}
	}
	opts := []morpheus.Option{morpheus.Iterations(n)}
	if s := getenv(EnvDuration); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%s=%q: want a positive duration", EnvDuration, s)
		}
		opts = append(opts, morpheus.Duration(d))
	}
	floor, factor, limit, err := scaledBudget(getenv(EnvBudget))
	if err != nil {
		return nil, err
	}
	if factor > 0 {
		opts = append(opts, morpheus.ScaledDuration(floor, factor))
	}
	if limit > 0 {
		opts = append(opts, morpheus.TimeLimit(limit))
	}
	return opts, nil
}

// scaledBudget reads EnvBudget: "" is the default, "off" none (factor and
// limit 0).
func scaledBudget(s string) (floor time.Duration, factor float64, limit time.Duration, err error) {
	switch s {
	case "":
		return DefaultBudgetFloor, DefaultBudgetFactor, DefaultBudgetLimit, nil
	case "off":
		return 0, 0, 0, nil
	}
	parts := strings.Split(s, ",")
	ok := len(parts) == 2 || len(parts) == 3
	if ok {
		floor, err = time.ParseDuration(parts[0])
	}
	if ok && err == nil {
		factor, err = strconv.ParseFloat(parts[1], 64)
	}
	if ok && err == nil && len(parts) == 3 {
		limit, err = time.ParseDuration(parts[2])
	}
	if !ok || err != nil || floor < 0 || factor <= 0 || limit < 0 {
		return 0, 0, 0, fmt.Errorf("%s=%q: want FLOOR,FACTOR[,LIMIT] (as 1s,3,1m) or off", EnvBudget, s)
	}
	return floor, factor, limit, nil
}
