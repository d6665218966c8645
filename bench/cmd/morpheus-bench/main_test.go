package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/morpheus-go/morpheus/internal/scripttest"
)

// TestMain removes the commands the tests built; with envReplayChild set,
// the test binary is this command instead, as bench replay's fresh
// processes.
func TestMain(m *testing.M) {
	if os.Getenv(envReplayChild) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	for _, b := range []*builtCommand{&benchCLI, &morpheusCLI} {
		if b.dir != "" {
			os.RemoveAll(b.dir)
		}
	}
	os.Exit(code)
}

// The tests that run a command as a user does run it as a program of its
// own, built once per test binary, without the race detector and without
// PGO (cmd/morpheus's tests say why).
type builtCommand struct {
	once sync.Once
	dir  string // removed by TestMain
	path string
	err  error
	out  []byte
}

var benchCLI, morpheusCLI builtCommand

// build builds the package pkg of the module in dir into b once.
func (b *builtCommand) build(t *testing.T, name, dir, pkg string) string {
	t.Helper()
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "morpheus-bench-test"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, name)
		cmd := exec.Command("go", "build", "-pgo=off", "-o", b.path, pkg)
		cmd.Dir = dir
		b.out, b.err = cmd.CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("building %s: %v\n%s", name, b.err, b.out)
	}
	return b.path
}

// cliBinary returns this package's command, built on the first call.
func cliBinary(t *testing.T) string { return benchCLI.build(t, "morpheus-bench", ".", ".") }

// morpheusBinary returns the morpheus command of this clone, built on the
// first call.
func morpheusBinary(t *testing.T) string {
	return morpheusCLI.build(t, "morpheus", "../../..", "./cmd/morpheus")
}

// runCLI runs this package's command with args in this package's directory
// and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var s scripttest.State
	code = s.Exec(".", append([]string{cliBinary(t)}, args...))
	return code, s.Stdout.String(), s.Stderr.String()
}
