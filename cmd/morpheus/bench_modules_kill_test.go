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
