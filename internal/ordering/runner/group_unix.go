//go:build unix

package runner

import (
	"os"
	"os/exec"
	"syscall"
)

// newGroup makes cmd the leader of a process group of its own, so that
// killGroup ends whatever it started too.
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group p leads (see newGroup).
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// writable reports whether the user can create files in directory d.
func writable(d string) bool {
	return syscall.Access(d, 2|1) == nil // W_OK|X_OK
}
