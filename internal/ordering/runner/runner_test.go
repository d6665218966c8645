//go:build unix

package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
)

func TestServerModeTransposesPairs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	st, err := Run(Config{Meta: helperMeta(ModeServer, "race"), Out: out, Runs: 20, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	c := st.Counters
	if c.Runs != 20 || c.Errors != 0 {
		t.Fatalf("counters %+v", c)
	}
	// 4 events: g1 a<b and g2 a<b are program order; the 4 cross pairs
	// can go either way, and the server asks for each of them.
	if st.Cov.Len() != 4 {
		t.Fatalf("observed %d unordered pairs, want the 4 cross-goroutine pairs: %v", st.Cov.Len(), st.Cov.All())
	}
	// The 2 program-order pairs can only time out; the cross pairs are
	// observed, naturally or forced.
	if c.Constrained == 0 || c.TimedOut == 0 || c.Satisfied+c.TimedOut+c.NotReached != c.Constrained {
		t.Fatalf("constraints: %+v", c)
	}
	if len(st.Growth) == 0 || st.Growth[len(st.Growth)-1].Pairs != 4 {
		t.Fatalf("growth %v", st.Growth)
	}
	// The saved campaign reloads to the same coverage.
	re := NewState(nil, 0, 0)
	if _, _, err := store.Open(out, re.load); err != nil {
		t.Fatal(err)
	}
	if re.Cov.Len() != 4 || re.Counters != c || re.Events.Len() != st.Events.Len() {
		t.Fatalf("reloaded %d pairs, counters %+v", re.Cov.Len(), re.Counters)
	}
}

func TestErrorRunsAndRules(t *testing.T) {
	m := helperMeta(ModeBaseline, "fail")
	r, _ := coverage.ParseRule("x:never<fail:before-failing")
	m.Rules = []coverage.Rule{r}
	m.Command = []string{"/usr/bin/env", "GORACE=atexit_sleep_ms=0", "MORPHEUS_RUNNER_HELPER=fail", tracepointProcess("fail"), os.Args[0]}
	st, err := Run(Config{Meta: m, Out: filepath.Join(t.TempDir(), "c"), Runs: 3, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Counters.Errors != 3 || len(st.Errors) != 3 {
		t.Fatalf("counters %+v, %d error runs", st.Counters, len(st.Errors))
	}
	e := st.Errors[0]
	if e.Exit != 3 || !strings.Contains(e.Stderr, "assertion failed") || len(e.Keys) != 1 || e.Keys[0] != "fail:before-failing#0" {
		t.Fatalf("error run %+v", e)
	}
	if st.Cov.Original() != nil {
		t.Fatal("an error trace became the original order")
	}
	if rc := st.Rules[0]; rc.Broken != 3 || len(rc.Runs) != 3 {
		t.Fatalf("rule %+v", rc)
	}
}

func tracepointProcess(name string) string { return "MORPHEUS_PROCESS=" + name }

// TestHungRunKilledWithItsGroup: a run that hangs past its limit is killed
// with its process group (here the helper's child) and recorded as hung. The
// helper hangs for certain (a read nobody answers), and the limit's clock
// starts once the helper has started its child and said so through a FIFO,
// so the kill never races the helper's start-up, however slow the machine.
func TestHungRunKilledWithItsGroup(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	pids := make(chan int, 1)
	go func() {
		b, err := os.ReadFile(fifo) // opens when the helper does, reads to its close
		pid, _ := strconv.Atoi(string(b))
		if err != nil || pid <= 0 {
			pid = -1
		}
		pids <- pid
	}()
	t.Cleanup(func() {
		// Unblock the reader if the helper never opened the FIFO.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	var reported atomic.Int64 // the child's pid, once the helper reported it
	orig := startLimit
	t.Cleanup(func() { startLimit = orig })
	startLimit = func(limit time.Duration, expire func()) func() {
		var mu sync.Mutex
		stopped := false
		stop := func() {}
		go func() {
			select {
			case p := <-pids:
				reported.Store(int64(p))
			case <-time.After(2 * time.Minute): // a helper that never gets ready fails below
			}
			mu.Lock()
			defer mu.Unlock()
			if !stopped {
				stop = orig(limit, expire)
			}
		}()
		return func() {
			mu.Lock()
			defer mu.Unlock()
			stopped = true
			stop()
		}
	}
	m := helperMeta(ModeBaseline, "hang")
	m.Limit = 300 * time.Millisecond
	m.Command = []string{"/usr/bin/env", "GORACE=atexit_sleep_ms=0", "MORPHEUS_RUNNER_HELPER=hang", "HELPER_PIDFILE=" + fifo, os.Args[0]}
	st, err := Run(Config{Meta: m, Out: filepath.Join(t.TempDir(), "c"), Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Counters.Hung != 1 || len(st.Errors) != 1 || !st.Errors[0].Hung || st.Errors[0].Exit != -1 {
		t.Fatalf("counters %+v errors %+v", st.Counters, st.Errors)
	}
	pid := int(reported.Load())
	if pid <= 0 {
		t.Fatalf("the helper did not report its child's pid (stderr %q)", st.Errors[0].Stderr)
	}
	deadline := time.Now().Add(time.Minute)
	for syscall.Kill(pid, 0) == nil {
		// The child may linger as a zombie until reaped by init; check its state.
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hung run's child %d survived", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestResumeAfterKill kills a campaign process with SIGKILL mid-campaign and
// resumes it: the saved runs, events and pairs are all there and the
// campaign finishes its runs.
func TestResumeAfterKill(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "MORPHEUS_RUNNER_HELPER=campaign", "HELPER_OUT="+out, "HELPER_RUNS=100000")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute) // a bound for a broken campaign, not a pace
	for {
		probe := NewState(nil, 0, 0)
		if _, _, err := store.Open(out, probe.load); err == nil && probe.Counters.Runs >= 5 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("campaign never saved 5 runs")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	saved := NewState(nil, 0, 0)
	if _, _, err := store.Open(out, saved.load); err != nil {
		t.Fatalf("campaign killed with SIGKILL does not reload: %v", err)
	}
	if saved.Counters.Runs == 0 {
		t.Fatal("no saved runs")
	}
	target := saved.Counters.Runs + 10
	st, err := Run(Config{Meta: helperMeta(ModeServer, "race"), Out: out, Runs: target, Jobs: 2, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Counters.Runs != target || st.Cov.Len() < saved.Cov.Len() || st.NextRun <= saved.NextRun {
		t.Fatalf("resumed: runs %d (want %d), pairs %d (saved %d), next run %d (saved %d)",
			st.Counters.Runs, target, st.Cov.Len(), saved.Cov.Len(), st.NextRun, saved.NextRun)
	}
	if _, err := Run(Config{Meta: helperMeta(ModeBaseline, "race"), Out: out, Runs: 1, Resume: true}); err == nil || !strings.Contains(err.Error(), "mode server, not baseline") {
		t.Fatalf("resuming in another mode: %v", err)
	}
	if _, err := Run(Config{Meta: helperMeta(ModeServer, "race"), Out: out, Runs: 1}); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("starting over an existing campaign: %v", err)
	}
}

func TestRandomMode(t *testing.T) {
	st, err := Run(Config{Meta: helperMeta(ModeRandom, "race"), Out: filepath.Join(t.TempDir(), "c"), Runs: 10, Jobs: 2, Quiet: 200 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if st.Counters.Runs != 10 || st.Counters.Errors != 0 || st.Counters.Constrained != 0 {
		t.Fatalf("counters %+v", st.Counters)
	}
}

func TestRoundsLimitConstraints(t *testing.T) {
	m := helperMeta(ModeServer, "race")
	m.Rounds = 1
	st, err := Run(Config{Meta: m, Out: filepath.Join(t.TempDir(), "c"), Runs: 12, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	// One sweep of the 6 pairs of the 4-event original order at most, then
	// the campaign is done (the 2 runs at once may both start before there
	// is an original order).
	if c := st.Counters; c.Runs > 8 || c.Constrained > 6 || st.Planner.Round != 1 || !st.Done {
		t.Fatalf("counters %+v, round %d, done %v", c, st.Planner.Round, st.Done)
	}
}
