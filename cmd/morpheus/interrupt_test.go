package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
)

// TestInterruptChildCLI is the morpheus command in a child process of
// TestInterruptTest: this test binary again, running the command's main
// with the arguments in MORPHEUS_CLI_ARGS.
func TestInterruptChildCLI(t *testing.T) {
	args := os.Getenv("MORPHEUS_CLI_ARGS")
	if args == "" {
		t.Skip("the morpheus command in a child process of TestInterruptTest")
	}
	os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
}

// An unlimited "morpheus test -rewrite=false" interrupted once its first
// plain progress line shows (at 10 s of the Check's time: the line of a run
// without a planned count) passes the interrupt on to the test process
// once, whose Check stops and writes its record; morpheus test prints the
// summary marked interrupted, writes the report and exits 130. The test
// waits for lines, not for a time.
func TestInterruptTest(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go test in a child process for more than 10 s")
	}
	if signal.Ignored(os.Interrupt) {
		// A background job's: the children inherit it and keep it
		// ignored, as morpheus does, and would never stop.
		t.Skip("SIGINT is ignored in this process")
	}
	work := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(work, "results.jsonl")
	cmd := exec.Command(exe, "-test.run=^TestInterruptChildCLI$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MORPHEUS_CLITEST="+work, "MORPHEUS_CLI_ARGS=test -rewrite=false -iterations 0 "+
		"-results "+keep+" -report "+filepath.Join(work, "report")+" -run TestPingPong ./internal/clitest")
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); w.Close(); close(exited) }()
	defer func() { cmd.Process.Kill(); <-exited }()
	var out strings.Builder
	progress := regexp.MustCompile(`^\S+ TestPingPong: \d+ iterations?, 0 failures, \d+ partial orders?`)
	signalled := false
	sc := bufio.NewScanner(r)
	deadline := time.AfterFunc(3*time.Minute, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if !signalled && progress.MatchString(sc.Text()) {
			cmd.Process.Signal(os.Interrupt) // the morpheus process only: it forwards
			signalled = true
		}
	}
	<-exited
	if !signalled {
		t.Fatalf("no progress line:\n%s", &out)
	}
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Errorf("exit code %d, want %d", code, exitInterrupted)
	}
	for _, want := range []string{
		`(?m)^\S+ TestPingPong: \d+ iterations, 0 failures, \d+ partial orders, \d+ it/s, interrupted$`,
		`(?m)^INTR \S+ TestPingPong: \d+ iterations, \d+ steps in all, \d+ partial orders, interrupted \(strategy random`,
		`(?m)^report: .*TestPingPong.html$`,
		`morpheus test: interrupted`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("output lacks %s:\n%s", want, &out)
		}
	}
	// One interrupt reached the test process: a second would have ended it
	// at once, without its record.
	if strings.Contains(out.String(), "interrupt again: stopping at once") {
		t.Errorf("the test process saw two interrupts:\n%s", &out)
	}
	recs, err := results.ReadFile(keep)
	if err != nil || len(recs) != 1 || !recs[0].Interrupted || recs[0].Iterations == 0 || recs[0].Planned != 0 {
		t.Fatalf("records %+v, %v", recs, err)
	}
}
