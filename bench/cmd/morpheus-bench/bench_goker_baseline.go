package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The baseline of "morpheus bench goker -baseline N": each kernel's test run
// by plain Go, as GoBench's own harness runs it (a test binary run with
// -test.count N -test.failfast -test.timeout T), once as built and once
// built with -race.

// gokerBaseRes is one baseline run's outcome.
type gokerBaseRes struct {
	Found   bool
	Kind    string // race, deadlock, hang, panic, fail; "" if the runs passed
	Seconds float64
	Error   string // the test binary did not build
}

func (b *gokerBaseRes) label() string {
	switch {
	case b == nil:
		return "-"
	case b.Error != "":
		return "error"
	case b.Found:
		return b.Kind
	}
	return "no"
}

// gokerBaseline builds a kernel's test binary (with -race if race) and runs
// it o.baseline times in one process under o.timeout.
func gokerBaseline(k *gokerKernel, o *gokerOpts, race bool) *gokerBaseRes {
	r := &gokerBaseRes{}
	name := strings.ReplaceAll(k.Rel, "/", "_")
	args := []string{"test", "-c", "-o"}
	if race {
		name += ".race"
		args = append(args, filepath.Join(o.cache, "baseline", name+".test"), "-race")
	} else {
		args = append(args, filepath.Join(o.cache, "baseline", name+".test"))
	}
	bin := args[3]
	args = append(args, "./"+k.Rel)
	ctx, cancel := context.WithTimeout(context.Background(), gokerKernelTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = o.mod, o.env
	if out, err := cmd.CombinedOutput(); err != nil {
		r.Error = fmt.Sprintf("go %s: %v\n%s", strings.Join(args, " "), err, tail(string(out), 20))
		return r
	}
	// The test binary's own -test.timeout ends a hang with a panic and
	// every goroutine's stack; the context is a safety net above it.
	rctx, rcancel := context.WithTimeout(context.Background(), o.timeout+time.Minute)
	defer rcancel()
	run := exec.CommandContext(rctx, bin, "-test.count", strconv.Itoa(o.baseline), "-test.failfast",
		"-test.timeout", o.timeout.String())
	run.Dir, run.Env = filepath.Join(o.mod, filepath.FromSlash(k.Rel)), o.env
	start := time.Now()
	out, err := run.CombinedOutput()
	r.Seconds = time.Since(start).Seconds()
	r.Kind = gokerBaseKind(string(out), err != nil)
	if rctx.Err() != nil && (r.Kind == "" || r.Kind == "fail") {
		r.Kind = "hang" // killed by the safety net
	}
	r.Found = r.Kind != ""
	return r
}

// gokerBaseKind classifies a plain go test run's output: a report of Go's
// race detector, Go's global deadlock ("all goroutines are asleep"), a hang
// ended by -test.timeout, a panic, a failed test.
func gokerBaseKind(out string, failed bool) string {
	switch {
	case strings.Contains(out, raceWarning):
		return "race"
	case strings.Contains(out, "all goroutines are asleep"):
		return "deadlock"
	case strings.Contains(out, "panic: test timed out after"):
		return "hang"
	case strings.Contains(out, "panic:") || strings.Contains(out, "fatal error:"):
		return "panic"
	case failed || strings.Contains(out, "--- FAIL"):
		return "fail"
	}
	return ""
}
