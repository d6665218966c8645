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

// ownGroup reports whether cmd was started as the leader of a group of its
// own (setGroup).
func ownGroup(cmd *exec.Cmd) bool { return cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid }

func signalGroup(pg int, s os.Signal) {
	if ss, ok := s.(syscall.Signal); ok {
		_ = syscall.Kill(-pg, ss)
	}
}

func killGroup(pg int) { _ = syscall.Kill(-pg, syscall.SIGKILL) }
