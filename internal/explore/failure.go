package explore

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/trace"
)

// Failure is a failing iteration as the driver finds, replays and shrinks
// it. Package morpheus documents its fields (morpheus.Failure) and converts
// it.
type Failure struct {
	Kind      string
	Message   string
	Task      string
	Location  string
	Stack     string
	Test      string
	Strategy  string
	Iteration int
	Seed      uint64
	Steps     int
	Clock     time.Duration
	Trace     *trace.Trace
	Path      string // the trace file a replay read, or where it was saved
	Replayed  bool   // Path is the trace file a replay read: nothing was saved
	Shrink    *ShrinkStats
	Env       any // the iteration's environment (Program.Setup's result), nil if none
}

// newFailure turns a failed iteration's outcome into a Failure.
func newFailure(c *Config, out core.Outcome, env any, iter int, seed uint64) *Failure {
	cf := out.Failure
	tr := out.Trace()
	tr.Header.Test, tr.Header.Iteration = c.Name, iter
	recordOptions(c, tr)
	f := &Failure{
		Kind: string(cf.Kind), Message: cf.Message, Stack: cf.Stack,
		Test: c.Name, Strategy: c.Strategy, Iteration: iter, Seed: seed,
		Steps: out.Steps, Clock: time.Duration(out.Clock), Trace: tr, Env: env,
	}
	if cf.Task >= 0 {
		f.Task = tr.TaskName(cf.Task)
	}
	if cf.PC != 0 {
		f.Location = core.Where(cf.PC)
	}
	tr.Header.Failure.Loc = f.Location
	return f
}
