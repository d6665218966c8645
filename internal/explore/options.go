package explore

import (
	"strconv"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// The settings that shape a schedule beyond its strategy and seed are
// recorded in its trace (trace.Header.Options) and applied when the trace
// is replayed, so that a trace found with early timers or another step
// limit replays as it was found whatever the replay is given.
const (
	optMaxSteps   = "maxsteps"
	optClockLimit = "clocklimit" // ns
	optEarly      = "earlytimers"
	optLeaks      = "allowleaks"
	optRaces      = "allowraces"
	optEpoch      = EpochOption
)

// EpochOption is the option that records where the virtual clock started
// (RFC 3339), absent for core.DefaultEpoch.
const EpochOption = "epoch"

// recordOptions sets c's schedule-shaping settings in tr's header, beside
// the options already there (how the test ran, which its runner sets);
// tr.Header.Iteration is set: the early timer firings are its iteration's.
func recordOptions(c *Config, tr *trace.Trace) {
	set := func(k, v string) {
		if tr.Header.Options == nil {
			tr.Header.Options = map[string]string{}
		}
		tr.Header.Options[k] = v
	}
	steps := c.MaxSteps
	if steps == 0 {
		steps = core.DefaultMaxSteps
	}
	set(optMaxSteps, strconv.Itoa(steps)) // always: a trace with options records them all

	if c.ClockLimit != 0 {
		set(optClockLimit, strconv.FormatInt(int64(c.ClockLimit), 10))
	}
	if n := c.earlyFor(tr.Header.Iteration); n > 0 {
		set(optEarly, strconv.Itoa(n)) // the iteration's own, under the portfolio too
	}
	if c.AllowLeaks {
		set(optLeaks, "true")
	}
	if c.AllowRaces {
		set(optRaces, "true")
	}
	if !c.Epoch.IsZero() {
		set(optEpoch, c.Epoch.Format(time.RFC3339Nano))
	}
}

// withOptions returns c with the settings tr recorded: those it records
// replace c's, and one it does not record is its default (a trace with
// options records every setting that was not: no early timers, whatever
// c's portfolio would give its iteration). Options it does not know (of a later
// version) and values it cannot read are left out.
func withOptions(c *Config, tr *trace.Trace) *Config {
	opts := tr.Header.Options
	if opts == nil { // a trace written before options: the replay's own settings
		if c.Early < 0 { // but no portfolio: a replay is one iteration as found
			rc := *c
			rc.Early = 0
			return &rc
		}
		return c
	}
	rc := *c
	rc.MaxSteps, rc.ClockLimit, rc.Early, rc.AllowLeaks, rc.AllowRaces, rc.Epoch = 0, 0, 0, false, false, time.Time{}
	if n, err := strconv.Atoi(opts[optMaxSteps]); err == nil && n > 0 {
		rc.MaxSteps = n
	}
	if n, err := strconv.ParseInt(opts[optClockLimit], 10, 64); err == nil && n > 0 {
		rc.ClockLimit = time.Duration(n)
	}
	if n, err := strconv.Atoi(opts[optEarly]); err == nil && n > 0 {
		rc.Early = n
	}
	rc.AllowLeaks, _ = strconv.ParseBool(opts[optLeaks])
	rc.AllowRaces, _ = strconv.ParseBool(opts[optRaces])
	if t, err := time.Parse(time.RFC3339Nano, opts[optEpoch]); err == nil {
		rc.Epoch = t
	}
	return &rc
}
