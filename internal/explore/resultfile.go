package explore

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/trace"
)

// WriteResult appends res to the result file (-morpheus.results,
// MORPHEUS_RESULTS), where morpheus test, merge, shrink and replay read it.
func WriteResult(c *Config, res *Result) error {
	r := &results.Record{
		Version: results.Version, Test: res.Test, Strategy: c.Strategy, Seed: res.Seed,
		Shard: res.Shard, Replay: c.Replay, Planned: c.Iterations, Iterations: res.Iterations,
		Steps: res.Steps, ElapsedNS: int64(res.Elapsed), Failures: res.Failures,
		Exhausted: res.Exhausted, Interrupted: res.Interrupted, Limit: res.Limit,
	}
	r.Package = packagePath()
	r.Stale = res.Stale
	if res.Failure != nil && r.Failures == 0 {
		r.Failures = 1 // a replay, or a failure found by the watchdog
	}
	if res.Orders != nil {
		r.SetOrders(res.Orders)
	}
	if res.Table != nil && res.Table.Len() > 0 {
		var b strings.Builder
		if err := res.Table.Save(&b, core.LocText); err != nil {
			return err
		}
		r.CATable = b.String()
	}
	if f := res.Failure; f != nil {
		rf := &results.Failure{
			Kind: f.Kind, Message: f.Message, Task: f.Task, Location: f.Location,
			Iteration: f.Iteration, Seed: f.Seed, Steps: f.Steps, Path: f.Path,
		}
		if f.Shrink != nil {
			rf.OriginalSteps, rf.ShrinkTimedOut = f.Shrink.OriginalSteps, f.Shrink.TimedOut
		}
		if f.Trace != nil {
			var b strings.Builder
			if err := trace.Encode(&b, f.Trace); err != nil {
				return err
			}
			rf.Trace = b.String()
		}
		r.Failure = rf
	}
	return results.Append(c.Results, r)
}

// packagePath returns the import path of the package whose test runs (go
// test runs a test in its package's directory): the module path of the
// nearest go.mod above, joined with the directory's path below it. Shards on
// machines with checkouts in different places thus name the same package.
// Outside a module it returns the directory.
func packagePath() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if mod := modulePath(filepath.Join(dir, "go.mod")); mod != "" {
			rel, err := filepath.Rel(dir, wd)
			if err != nil {
				return wd
			}
			return path.Join(mod, filepath.ToSlash(rel))
		}
		if filepath.Dir(dir) == dir {
			return wd
		}
	}
}

// modulePath returns the module path a go.mod file declares, or "".
func modulePath(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
