//go:build !unix

package interrupt

import (
	"os"
	"os/exec"
)

var interruptSignal os.Signal = os.Interrupt

func setGroup(cmd *exec.Cmd) {}

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
