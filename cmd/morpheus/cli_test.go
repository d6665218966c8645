package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The tests that run the CLI as a user does (the scripts, the benchmarks
// that rewrite and build test binaries) run it as a command of its own,
// built once per test binary, without the race detector and without PGO.
// Rewriting type-checks every package it rewrites, which Go's race
// detector makes two to three times slower: under "go test -race" the
// scripts spent most of their time there, and took longer than go test's
// default time-out on a busy 2-core machine. Without PGO the build shares
// its compiled packages with go vet's and go build's. The CLI's code is
// race-tested by the tests that call run in this process.
var builtCLI struct {
	once sync.Once
	dir  string // removed by TestMain
	path string
	err  error
	out  []byte
}

// cliBinary returns the path of the morpheus command built from this
// package, building it on the first call.
func cliBinary(t *testing.T) string {
	t.Helper()
	builtCLI.once.Do(func() {
		if builtCLI.dir, builtCLI.err = os.MkdirTemp("", "morpheus-cli"); builtCLI.err != nil {
			return
		}
		builtCLI.path = filepath.Join(builtCLI.dir, "morpheus")
		cmd := exec.Command("go", "build", "-pgo=off", "-o", builtCLI.path, ".")
		builtCLI.out, builtCLI.err = cmd.CombinedOutput()
	})
	if builtCLI.err != nil {
		t.Fatalf("building the morpheus command: %v\n%s", builtCLI.err, builtCLI.out)
	}
	return builtCLI.path
}

// removeCLI removes the built command, once the tests are done.
func removeCLI() {
	if builtCLI.dir != "" {
		os.RemoveAll(builtCLI.dir)
	}
}
