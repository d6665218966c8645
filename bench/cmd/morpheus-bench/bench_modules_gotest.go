package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/proctree"
)

// goTestRun is what "go test -json" said of a module's packages: per
// package, its top-level tests' outcomes ("pass", "fail", "skip", or "run"
// for one that never ended), in the order they started.
type goTestRun struct {
	Pkgs    map[string]*goTestPkg
	Order   []string // packages in the order their first event came
	Elapsed time.Duration
	Err     error // the command's error (non-nil when any test failed)
}

type goTestPkg struct {
	Tests  map[string]string
	Order  []string
	Failed bool // the package's own result was a failure
}

// Tests counts the top-level tests go test ran.
func (g *goTestRun) Tests() int {
	n := 0
	for _, p := range g.Pkgs {
		n += len(p.Order)
	}
	return n
}

// Failed lists the top-level tests that did not pass or skip, as
// "package.Test".
func (g *goTestRun) Failed() []string {
	var out []string
	for _, path := range g.Order {
		p := g.Pkgs[path]
		for _, t := range p.Order {
			if s := p.Tests[t]; s != "pass" && s != "skip" {
				out = append(out, path+"."+t)
			}
		}
	}
	return out
}

// goTestJSON runs "go test -json -count=1" (and extra flags) on pattern in
// dir and reads its events. Only top-level tests named Test* count:
// examples and fuzz seeds do not run under morpheus test's rewriting.
func goTestJSON(dir, pattern string, extra []string, env []string, timeout time.Duration, keep string) *goTestRun {
	args := append([]string{"test", "-json", "-count=1", "-timeout", timeout.String()}, extra...)
	args = append(args, pattern)
	start := time.Now()
	out, err := runBounded(dir, env, timeout+2*time.Minute, "go", args...)
	if keep != "" {
		_ = os.WriteFile(keep, out, 0o644)
	}
	g := &goTestRun{Pkgs: map[string]*goTestPkg{}, Elapsed: time.Since(start), Err: err}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var ev struct {
			Action, Package, Test string
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Package == "" {
			continue
		}
		p := g.Pkgs[ev.Package]
		if p == nil {
			p = &goTestPkg{Tests: map[string]string{}}
			g.Pkgs[ev.Package] = p
			g.Order = append(g.Order, ev.Package)
		}
		if ev.Test == "" {
			if ev.Action == "fail" {
				p.Failed = true
			}
			continue
		}
		if strings.Contains(ev.Test, "/") || !strings.HasPrefix(ev.Test, "Test") {
			continue
		}
		switch ev.Action {
		case "run":
			if _, ok := p.Tests[ev.Test]; !ok {
				p.Order = append(p.Order, ev.Test)
			}
			p.Tests[ev.Test] = "run"
		case "pass", "fail", "skip":
			if _, ok := p.Tests[ev.Test]; !ok {
				p.Order = append(p.Order, ev.Test)
			}
			p.Tests[ev.Test] = ev.Action
		}
	}
	for path, p := range g.Pkgs {
		if len(p.Order) == 0 {
			delete(g.Pkgs, path)
		}
	}
	order := g.Order[:0]
	for _, path := range g.Order {
		if g.Pkgs[path] != nil {
			order = append(order, path)
		}
	}
	g.Order = order
	return g
}

// union adds to g the top-level tests that only h ran (a go test process
// that died in one run does not reach the tests after it), with h's
// outcomes.
func (g *goTestRun) union(h *goTestRun) {
	for _, path := range h.Order {
		hp := h.Pkgs[path]
		p := g.Pkgs[path]
		if p == nil {
			p = &goTestPkg{Tests: map[string]string{}}
			g.Pkgs[path] = p
			g.Order = append(g.Order, path)
		}
		for _, t := range hp.Order {
			if _, ok := p.Tests[t]; !ok {
				p.Tests[t] = hp.Tests[t]
				p.Order = append(p.Order, t)
			}
		}
	}
}

// errTimedOut is runBounded's error for a command it ended.
var errTimedOut = errors.New("timed out")

// runBounded runs a command in its own process group and returns its
// standard output; after timeout it kills the group and returns
// errTimedOut. Its standard error is appended to the error's text.
func runBounded(dir string, env []string, timeout time.Duration, name string, args ...string) ([]byte, error) {
	return runBoundedGrace(dir, env, timeout, 0, name, args...)
}

// runBoundedGrace is runBounded that, given a grace period, first sends
// the command a SIGTERM at the time-out (morpheus test then stops its tests
// and prints what ran) and kills the group only if it has not ended after
// grace. Not a SIGINT: a bench run in the background (nohup, &) ignores
// SIGINT, its commands inherit that, and morpheus test keeps it ignored.
func runBoundedGrace(dir string, env []string, timeout, grace time.Duration, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	ownGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Once the command has ended, a process it left behind that holds its
	// output open must not keep Wait waiting for the pipe to close.
	cmd.WaitDelay = outputDelay
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if errors.Is(err, exec.ErrWaitDelay) {
			err = nil // it exited well; only the pipe stayed open
		}
		if err != nil {
			err = &cmdError{err: err, stderr: stderr.String()}
		}
		return stdout.Bytes(), err
	case <-ctx.Done():
		// Its processes as they are now: once the command has ended on the
		// signal, the ones it did not stop are orphans that no walk from
		// its pid finds (test processes in groups of their own).
		below := proctree.Descendants(cmd.Process.Pid)
		if grace > 0 {
			terminate(cmd.Process)
			select {
			case <-done:
				killAll(below)
				return stdout.Bytes(), errTimedOut
			case <-time.After(grace):
			}
		}
		proctree.KillTree(cmd.Process.Pid)
		killAll(below)
		<-done
		return stdout.Bytes(), errTimedOut
	}
}

// outputDelay bounds how long runBounded waits for a command's output once
// the command has ended.
const outputDelay = 10 * time.Second

// killAll kills each process of pids with the processes below it and its
// group (proctree.KillTree).
func killAll(pids []int) {
	for _, p := range pids {
		proctree.KillTree(p)
	}
}

type cmdError struct {
	err    error
	stderr string
}

func (e *cmdError) Error() string {
	return e.err.Error() + "\n" + tail(e.stderr, 20)
}

// benchEnv is the environment of the module's go commands: its own go.mod
// resolves (-mod=mod), no workspace around the temporary directory.
func benchEnv() []string {
	var env []string
	flags := "-mod=mod"
	for _, kv := range os.Environ() {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			flags = strings.TrimSpace(v + " " + flags)
			continue
		}
		if strings.HasPrefix(kv, "GOWORK=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOFLAGS="+flags, "GOWORK=off")
}
