//go:build !unix

package interrupt

import (
	"os"
	"os/exec"
)

var interruptSignal os.Signal = os.Interrupt

func setGroup(cmd *exec.Cmd) {}

// ownGroup reports false: process groups are unix's, and what a command
// leaves behind is not killed here.
func ownGroup(cmd *exec.Cmd) bool { return false }

func signalGroup(pg int, s os.Signal) {
	if p, err := os.FindProcess(pg); err == nil {
		_ = p.Signal(s)
	}
}

func killGroup(pg int) {
	if p, err := os.FindProcess(pg); err == nil {
		_ = p.Kill()
	}
}
