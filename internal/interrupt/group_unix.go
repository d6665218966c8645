//go:build unix

package interrupt

import (
	"os"
	"os/exec"
	"syscall"
)

var interruptSignal os.Signal = os.Interrupt

func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

func signalGroup(pg int, s os.Signal) {
	if ss, ok := s.(syscall.Signal); ok {
		_ = syscall.Kill(-pg, ss)
	}
}

func killGroup(pg int) { _ = syscall.Kill(-pg, syscall.SIGKILL) }
