//go:build unix

package interrupt

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A command started under a Watch that leaves a child running (a test
// process the watchdog failed while its test waited for exec.Command's
// sleep) has that child killed when Wait returns.
func TestWaitKillsLeftovers(t *testing.T) {
	defer Watch()()
	var out bytes.Buffer
	cmd := exec.Command("sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!")
	cmd.Stdout = &out
	if err := Run(cmd); errors.Is(err, exec.ErrNotFound) {
		t.Skip(err) // no sh here
	} else if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil {
		t.Fatalf("no pid: %q", out.String())
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	for deadline := time.Now().Add(20 * time.Second); alive(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %d still runs after Wait", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether process pid exists and is no zombie (a container's
// init may not reap an orphan).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) // no /proc: the signal test is all there is
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
