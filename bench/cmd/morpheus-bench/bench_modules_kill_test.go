//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunBoundedKillsTree: past the time-out, a command's descendants die
// too, even one in a process group of its own (as morpheus test's test
// processes are).
func TestRunBoundedKillsTree(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	out, err := runBounded(t.TempDir(), os.Environ(), 2*time.Second, "sh", "-c", "setsid sleep 300 & echo $!; wait")
	if !errors.Is(err, errTimedOut) {
		t.Fatalf("err = %v, want a time-out", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("no pid in %q", out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(stat), ") Z ") {
			return // a zombie: killed, not yet reaped
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d (its own session) still runs after the time-out", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRunBoundedGraceInBackground: at the time-out, the command is asked to
// stop by a signal it hears even when it runs as a background job, whose
// SIGINT is ignored (morpheus test keeps an ignored SIGINT ignored, and
// the bench run with nohup or & passes that on): it stops and its output
// is kept. Before, the SIGINT went unheard, the command was killed after
// the grace period, and every record of the package was lost.
func TestRunBoundedGraceInBackground(t *testing.T) {
	script := `trap '' INT; trap 'echo stopped; exit 0' TERM; echo started; while :; do sleep 0.1; done`
	start := time.Now()
	out, err := runBoundedGrace(t.TempDir(), os.Environ(), time.Second, time.Minute, "sh", "-c", script)
	if !errors.Is(err, errTimedOut) {
		t.Fatalf("err = %v, want a time-out", err)
	}
	if !strings.Contains(string(out), "stopped") {
		t.Fatalf("the command was killed, not stopped, after %v: %q", time.Since(start), out)
	}
}

// TestRunBoundedOrphanHoldsOutput: a command that ends on the time-out's
// signal but leaves a process behind (in a session of its own, so no walk
// from the command's pid finds it) that holds its output open. Before,
// Wait waited for that pipe to close, and the run went on past its
// time-out for as long as the orphan lived.
func TestRunBoundedOrphanHoldsOutput(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	script := `setsid sleep 300 & echo $!; trap 'exit 0' TERM; while :; do sleep 0.1; done`
	start := time.Now()
	out, err := runBoundedGrace(t.TempDir(), os.Environ(), time.Second, time.Minute, "sh", "-c", script)
	if !errors.Is(err, errTimedOut) {
		t.Fatalf("err = %v, want a time-out", err)
	}
	if d := time.Since(start); d > 2*time.Minute {
		t.Fatalf("returned after %v, past the time-out and its grace", d)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("no pid in %q", out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(stat), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the orphan %d still runs after the time-out", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
