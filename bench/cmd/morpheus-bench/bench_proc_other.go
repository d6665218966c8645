//go:build !unix

package main

import (
	"os"
	"os/exec"
	"time"
)

// ownGroup does nothing: process groups are unix's, and a bench command
// that times out is killed alone, not the processes it started.
func ownGroup(cmd *exec.Cmd) {}

// terminate kills p: there is no SIGTERM to stop it gracefully.
func terminate(p *os.Process) { _ = p.Kill() }

// rusage is what bench fuzz reports of getrusage.
type rusage struct {
	cpu     time.Duration
	peakMiB float64
}

// resourceUsage returns zero CPU time and an unknown (-1) peak: there is no
// getrusage here.
func resourceUsage() (self, children rusage) { return rusage{peakMiB: -1}, rusage{peakMiB: -1} }
