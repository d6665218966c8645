package explore

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// StaleTrace is the failure kind of a strict replay of a trace file that
// the code no longer follows, while the test follows its own schedules: the
// trace was recorded on different code (typically before a fix).
const StaleTrace = "stale-trace"

// explainDivergence says why the strict replay of the trace file at path
// left the recorded schedule (f, a nondeterminism failure): the code changed
// since the trace was recorded, or the test is not a function of its
// schedule. To tell them apart it runs the test once more along the trace,
// as far as it applies and at random after, then replays that run's own
// trace strictly. A test that leaves a schedule it has just run in this
// process is nondeterministic, and f stays a nondeterminism failure; one
// that follows it makes the file stale, and f becomes a stale-trace failure
// that says so.
func explainDivergence(c *Config, prog Program, tr *trace.Trace, path string, f *Failure) {
	where := f.Message
	if again := selfDivergence(c, prog, tr); again != "" {
		what := "the replay"
		if tr.Header.Test != "" {
			what += " of " + tr.Header.Test
		}
		f.Message = fmt.Sprintf("%s diverged: %s; the test is nondeterministic: a run along the same trace then left its own schedule too, %s", what, where, again)
	} else {
		f.Kind = StaleTrace
		f.Message = fmt.Sprintf("%s: this trace was recorded on different code: %s; delete it if the bug is fixed", path, where)
	}
	if f.Trace != nil && f.Trace.Header.Failure != nil {
		f.Trace.Header.Failure.Kind, f.Trace.Header.Failure.Message = f.Kind, f.Message
	}
}

// selfDivergence runs the test along tr (at random from where it leaves tr),
// replays that run strictly, and returns where the replay left the run's own
// schedule, "" if it followed it.
func selfDivergence(c *Config, prog Program, tr *trace.Trace) string {
	random, err := strategy.Parse("random")
	if err != nil {
		return ""
	}
	_, ran := replayTrace(c, prog, tr, NewReplay(tr, random), true)
	if ran == nil {
		return "" // it blocked outside control: no schedule of its own to replay
	}
	res, _ := replayTrace(c, prog, ran, NewReplay(ran, nil), false)
	if f := res.Failure; f != nil && f.Kind == string(core.Nondeterminism) {
		return f.Message
	}
	return ""
}
