package main

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/tracepoint"
)

// TestMain lets the test binary be the system under "morpheus fuzz" in the
// scripts: run as $TESTBIN with MORPHEUS_FUZZ_TEST_ROLE set (by the
// script's env line), it plays that role instead of running tests.
func TestMain(m *testing.M) {
	if role := os.Getenv("MORPHEUS_FUZZ_TEST_ROLE"); role != "" && os.Getenv(tracepoint.EnvSocket) != "" {
		os.Exit(fuzzTestSystem(role))
	}
	proctest.Main()
	code := m.Run()
	removeCLI()
	os.Exit(code)
}

func fuzzTestSystem(role string) int {
	switch role {
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
		return 0
	case "fail":
		tracepoint.Hit("before")
		fmt.Fprintln(os.Stderr, "fuzztest: assertion failed: x != y")
		return 3
	}
	fmt.Fprintf(os.Stderr, "fuzztest: unknown role %q\n", role)
	return 2
}
