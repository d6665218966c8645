package morpheus

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/internal/results"
)

// The tests of a graceful interrupt run a Check in a child process (this
// test binary again, running TestInterruptChild), send it SIGINT once it
// shows it is under way, and check what it reports and writes. They wait
// for the child's lines, never for a time: the deadlines are only there to
// end a test that went wrong.

const childEnv = "MORPHEUS_INTERRUPT_CHILD"

// childDeadline ends a child that never says what a test waits for.
const childDeadline = 3 * time.Minute

// TestInterruptChild is the child's side; it runs only in a child.
func TestInterruptChild(t *testing.T) {
	mode := os.Getenv(childEnv)
	if mode == "" {
		t.Skip("run by the interrupt tests in a child process")
	}
	if d, err := time.ParseDuration(os.Getenv("MORPHEUS_INTERRUPT_GRACE")); err == nil {
		explore.InterruptGrace = d
	}
	switch mode {
	case "pass": // unlimited iterations that all pass
		Check(t, func(e *Env) {
			n := e.NewNode("n1", nil)
			main := e.Self()
			for range 2 {
				n.Spawn("w", func(e *Env) { e.Send(main, e.Choose(3)) })
			}
			Recv[int](e)
			Recv[int](e)
		}, Iterations(0), Workers(2))
	case "fail", "hang": // iteration 0 never ends; in "fail", iteration 1 fails
		Check(t, func(e *Env) {
			switch e.Iteration() {
			case 0:
				fmt.Fprintln(os.Stderr, "CHILD: endless iteration started")
				for {
					e.Yield()
				}
			case 1:
				if mode == "fail" {
					fmt.Fprintln(os.Stderr, "CHILD: failing")
					e.Fatalf("boom")
				}
			}
		}, Iterations(0), Workers(2), Strategy("random"), MaxSteps(1<<40), Shrink(0))
	}
	t.Log("CHILD: Check returned")
}

// child is a running child process and its output, line by line.
type child struct {
	t     *testing.T
	cmd   *exec.Cmd
	lines chan string
	out   strings.Builder // every line so far (the reading goroutine's)
	done  chan struct{}   // closed when the output ended
	exit  chan struct{}   // closed when the child was reaped
}

func startChild(t *testing.T, mode, dir string, env ...string) *child {
	t.Helper()
	if testing.Short() {
		t.Skip("runs a child test process")
	}
	if signal.Ignored(os.Interrupt) {
		// A background job's: the child inherits it and keeps it ignored,
		// as morpheus does, and would never stop.
		t.Skip("SIGINT is ignored in this process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestInterruptChild$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{childEnv + "=" + mode, "MORPHEUS_ITERATIONS=0",
		"MORPHEUS_SHARD=", "MORPHEUS_REPLAY=", "MORPHEUS_STRATEGY=", "MORPHEUS_WORKERS="}, env...)...)
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{t: t, cmd: cmd, lines: make(chan string, 1024), done: make(chan struct{}), exit: make(chan struct{})}
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			c.out.WriteString(sc.Text() + "\n")
			select {
			case c.lines <- sc.Text():
			default: // nobody waits for lines any more
			}
		}
	}()
	go func() { cmd.Wait(); w.Close(); close(c.exit) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-c.exit
		<-c.done
	})
	return c
}

// waitLine waits for a line of the child that matches re.
func (c *child) waitLine(re string) {
	c.t.Helper()
	pat := regexp.MustCompile(re)
	deadline := time.After(childDeadline)
	for {
		select {
		case l := <-c.lines:
			if pat.MatchString(l) {
				return
			}
		case <-c.done:
			c.t.Fatalf("the child ended without a line matching %s", re)
		case <-deadline:
			c.cmd.Process.Kill()
			c.t.Fatalf("no line matching %s within %v", re, childDeadline)
		}
	}
}

// wait waits for the child to exit and returns its exit code and output.
func (c *child) wait() (int, string) {
	c.t.Helper()
	select {
	case <-c.exit:
	case <-time.After(childDeadline):
		c.cmd.Process.Kill()
		c.t.Fatalf("the child did not exit within %v", childDeadline)
	}
	<-c.done
	return c.cmd.ProcessState.ExitCode(), c.out.String()
}

// An unlimited Check interrupted once its progress shows stops, fails its
// test with a summary of what it did, and writes its record, interrupted.
func TestInterruptCheck(t *testing.T) {
	dir := t.TempDir()
	progress, res := filepath.Join(dir, "progress.jsonl"), filepath.Join(dir, "results.jsonl")
	c := startChild(t, "pass", dir, "MORPHEUS_PROGRESS="+progress, "MORPHEUS_RESULTS="+res)
	fol := results.Follower{Path: progress}
	deadline := time.Now().Add(childDeadline)
	for len(fol.Next()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no progress line from the child")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.cmd.Process.Signal(os.Interrupt)
	code, out := c.wait()
	if code != 1 {
		t.Errorf("exit code %d, want 1 (the test fails)\n%s", code, out)
	}
	for _, want := range []string{
		`morpheus: interrupt: finishing what runs`,
		`morpheus: interrupted after \d+ iterations? \(of unlimited planned\), \d+ steps? in all, 0 failing, .*no failure found so far: the run is incomplete`,
		`CHILD: Check returned`,
		`--- FAIL: TestInterruptChild`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	recs, err := results.ReadFile(res)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %v, %v", recs, err)
	}
	if r := recs[0]; !r.Interrupted || r.Iterations < 1 || r.Planned != 0 || r.Failure != nil {
		t.Errorf("record %+v", r)
	}
	var last results.Progress
	for _, p := range (&results.Follower{Path: progress}).Next() {
		last = p
	}
	if !last.Done || !last.Interrupted || last.Iterations != recs[0].Iterations {
		t.Errorf("last progress line %+v", last)
	}
}

// A Check interrupted after it found a failure, while an endless iteration
// still runs, abandons that iteration, saves the failure's trace and
// reports it, and its record names the trace and says it was interrupted.
func TestInterruptCheckFailure(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.jsonl")
	c := startChild(t, "fail", dir, "MORPHEUS_RESULTS="+res, "MORPHEUS_INTERRUPT_GRACE=100ms")
	c.waitLine(`^CHILD: failing`)
	c.cmd.Process.Signal(os.Interrupt)
	code, out := c.wait()
	if code != 1 {
		t.Errorf("exit code %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		`morpheus: assertion failure in TestInterruptChild, iteration 2`, // the second, counted from 1
		`trace saved: testdata/morpheus/TestInterruptChild/[0-9a-f]+`,
		`morpheus: interrupted after \d+ iterations? .* 1 failing, .*the failure above was found before the interrupt \(not shrunk\)`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	recs, err := results.ReadFile(res)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %v, %v", recs, err)
	}
	r := recs[0]
	if !r.Interrupted || r.Failure == nil || r.Failure.Iteration != 1 || r.Failure.Path == "" {
		t.Fatalf("record %+v, failure %+v", r, r.Failure)
	}
	if _, err := os.Stat(filepath.Join(dir, r.Failure.Path)); err != nil {
		t.Errorf("the saved trace: %v", err)
	}
	if _, err := r.Failure.DecodeTrace(); err != nil {
		t.Errorf("the record's trace: %v", err)
	}
}

// A second interrupt, while the first waits for an iteration that does not
// end, exits at once with status 130.
func TestInterruptTwice(t *testing.T) {
	c := startChild(t, "hang", t.TempDir(), "MORPHEUS_INTERRUPT_GRACE=1h")
	c.waitLine(`^CHILD: endless iteration started`)
	c.cmd.Process.Signal(os.Interrupt)
	c.waitLine(`morpheus: interrupt: finishing what runs`)
	c.cmd.Process.Signal(os.Interrupt)
	code, out := c.wait()
	if code != 130 || !strings.Contains(out, "morpheus: interrupt again: stopping at once") {
		t.Errorf("exit code %d, want 130\n%s", code, out)
	}
	if strings.Contains(out, "CHILD: Check returned") {
		t.Errorf("the Check returned:\n%s", out)
	}
}
