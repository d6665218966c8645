//go:build unix

package main

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// ownGroup makes cmd the leader of a process group of its own.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminate sends p a SIGTERM.
func terminate(p *os.Process) { _ = p.Signal(syscall.SIGTERM) }

// rusage is what bench fuzz reports of getrusage.
type rusage struct {
	cpu     time.Duration // user and system
	peakMiB float64       // peak resident set size
}

// resourceUsage returns the resource usage of this process and of its children
// that have ended.
func resourceUsage() (self, children rusage) {
	get := func(who int) rusage {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) != nil {
			return rusage{peakMiB: -1}
		}
		peak := float64(ru.Maxrss) / 1024 // KiB
		if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
			peak = float64(ru.Maxrss) / (1 << 20) // bytes
		}
		return rusage{cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), peakMiB: peak}
	}
	return get(syscall.RUSAGE_SELF), get(syscall.RUSAGE_CHILDREN)
}
