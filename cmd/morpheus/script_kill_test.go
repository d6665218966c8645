package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/proctree"
)

// killOn runs args until their stdout matches re, then kills the process
// and every process it started (proctree.KillTree: the test processes of morpheus
// test run in process groups of their own), as a time-out of a CI job or of
// morpheus bench modules does.
func killOn(re *regexp.Regexp, env, args []string, stdout, stderr *bytes.Buffer) error {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return errors.New("killon needs /proc")
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), env...)
	ownGroup(cmd)
	var mu sync.Mutex
	cmd.Stdout = sharedLockWriter{&mu, stdout}
	cmd.Stderr = sharedLockWriter{&mu, stderr}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(5 * time.Minute)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			return errors.New("it ended before its stdout matched: " + errString(err))
		case <-deadline:
			proctree.KillTree(cmd.Process.Pid)
			<-exited
			return errors.New("its stdout did not match within 5 minutes")
		case <-tick.C:
			mu.Lock()
			ok := re.Match(stdout.Bytes())
			mu.Unlock()
			if ok {
				proctree.KillTree(cmd.Process.Pid)
				<-exited
				return nil
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "exit 0"
	}
	return err.Error()
}

// sharedLockWriter writes to b under mu, which the reader holds too.
type sharedLockWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w sharedLockWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
