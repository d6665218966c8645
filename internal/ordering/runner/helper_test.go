package runner

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/store"
	"github.com/morpheus-go/morpheus/tracepoint"
)

// The test binary doubles as the systems under test and as a campaign
// process to kill, selected by MORPHEUS_RUNNER_HELPER.
func TestMain(m *testing.M) {
	switch role := os.Getenv("MORPHEUS_RUNNER_HELPER"); role {
	case "":
		os.Exit(m.Run())
	case "race":
		// Two goroutines race through two tracepoints each.
		var wg sync.WaitGroup
		for _, g := range []string{"g1", "g2"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tracepoint.Hit("a", "g="+g)
				tracepoint.Hit("b", "g="+g)
			}()
		}
		wg.Wait()
		os.Exit(0)
	case "chain":
		tracepoint.Hit("first")
		tracepoint.Hit("second")
		os.Exit(0)
	case "fail":
		tracepoint.Hit("before-failing")
		fmt.Fprintln(os.Stderr, "helper: assertion failed: x != y")
		os.Exit(3)
	case "hang":
		// A child in the same process group, its pid written (to the
		// test's FIFO, if it gave one), then a read from a pipe nobody
		// writes to: it blocks for good (a bare select{} hangs only as
		// long as something else in the binary keeps the runtime from
		// ending it as a deadlock).
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if f := os.Getenv("HELPER_PIDFILE"); f != "" {
			os.WriteFile(f, []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		}
		r, w, err := os.Pipe()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		r.Read(make([]byte, 1))
		w.Close()  // w is used after the read: no finalizer closes it meanwhile
		os.Exit(2) // not reached
	case "campaign":
		runs, _ := strconv.Atoi(os.Getenv("HELPER_RUNS"))
		_, err := Run(Config{Meta: helperMeta("server", "race"), Out: os.Getenv("HELPER_OUT"), Runs: runs, Jobs: 2, Save: 20 * time.Millisecond})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	default:
		fmt.Fprintf(os.Stderr, "unknown helper role %q\n", role)
		os.Exit(2)
	}
}

// helperMeta is a campaign running this binary in the given helper role. No
// run of these roles hangs: the limit only bounds a broken one, with room
// for a race-instrumented start-up on a machine that stalls for minutes (a
// loaded one under memory pressure held two runs past a limit of 2 minutes),
// and inside go test's 10. The time-out, what a
// held hit waits for the other goroutine's, stays short: each infeasible
// constraint costs a whole one, and a feasible one that expires on a loaded
// machine is planned again (the tests give the planner runs to spare).
func helperMeta(mode, role string) store.Meta {
	return store.Meta{
		Mode: mode, Constraints: 1, Timeout: 200 * time.Millisecond, Limit: 8 * time.Minute, Seed: 1,
		Command: []string{"/usr/bin/env", "GORACE=atexit_sleep_ms=0", "MORPHEUS_RUNNER_HELPER=" + role, os.Args[0]},
	}
}
