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
		// A child in the same process group, then wait forever.
		child := exec.Command("sleep", "300")
		child.Start()
		os.WriteFile(os.Getenv("HELPER_PIDFILE"), []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		select {}
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

// helperMeta is a campaign running this binary in the given helper role.
func helperMeta(mode, role string) store.Meta {
	return store.Meta{
		Mode: mode, Constraints: 1, Timeout: 200 * time.Millisecond, Limit: 10 * time.Second, Seed: 1,
		Command: []string{"/usr/bin/env", "GORACE=atexit_sleep_ms=0", "MORPHEUS_RUNNER_HELPER=" + role, os.Args[0]},
	}
}
