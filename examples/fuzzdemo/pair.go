package main

import (
	"os"
	"os/exec"

	"github.com/morpheus-go/morpheus/tracepoint"
)

// pair is a trivial system of two processes, each hitting two tracepoints:
// the smallest thing "morpheus fuzz" can run, for throughput figures.
func pair() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	child := exec.Command(exe, "pair-child")
	child.Env = append(os.Environ(), tracepoint.EnvProcess+"=child")
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		return err
	}
	setProcessName("parent")
	hit("a")
	hit("b")
	return child.Wait()
}

func pairChild() error {
	hit("a")
	hit("b")
	return nil
}
