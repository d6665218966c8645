//go:build unix

package proctree

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
)

func TestParentOf(t *testing.T) {
	for _, c := range []struct {
		stat string
		ppid int
		ok   bool
	}{
		{"12 (sleep) S 7 12 12 0", 7, true},
		{"12 (a) b (c)) R 99 1", 99, true},
		{"12 no parenthesis", 0, false},
		{"12 (x) S", 0, false},
		{"12 (x) S notanumber", 0, false},
	} {
		ppid, ok := parentOf([]byte(c.stat))
		if ppid != c.ppid || ok != c.ok {
			t.Errorf("parentOf(%q) = %d, %v; want %d, %v", c.stat, ppid, ok, c.ppid, c.ok)
		}
	}
}

// TestKillTreeKillsGrandchildren starts a shell in a group of its own
// whose child moves to another group, and checks that both end.
func TestKillTreeKillsGrandchildren(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	cmd := exec.Command("sh", "-c", `setsid sleep 300 & echo $!; wait`)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var grandchild int
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	for _, c := range buf[:n] {
		if c >= '0' && c <= '9' {
			grandchild = grandchild*10 + int(c-'0')
		}
	}
	found := false
	for _, p := range Descendants(cmd.Process.Pid) {
		found = found || p == grandchild
	}
	if !found {
		t.Fatalf("Descendants(%d) misses the grandchild %d", cmd.Process.Pid, grandchild)
	}
	KillTree(cmd.Process.Pid)
	_ = cmd.Wait()
	// The grandchild's parent is gone; once reaped by init its /proc entry
	// goes, until then it is a zombie (state Z).
	for {
		stat, err := os.ReadFile("/proc/" + itoa(grandchild) + "/stat")
		if err != nil {
			return
		}
		if i := lastParen(stat); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			return
		}
		syscall.Kill(grandchild, 0) // keep looping until the kill lands
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func lastParen(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == ')' {
			return i
		}
	}
	return -1
}
