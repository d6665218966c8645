//go:build !unix

package runner

import (
	"os"
	"os/exec"
)

// newGroup does nothing: process groups are unix's. Here killGroup ends
// the launch command only, not the processes it started.
func newGroup(cmd *exec.Cmd) {}

// killGroup kills p alone (see newGroup).
func killGroup(p *os.Process) {
	p.Kill()
}

// writable reports false: the memory file systems socketRoot looks for are
// unix's, and the temporary directory serves.
func writable(d string) bool { return false }
