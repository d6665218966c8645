package main

import (
	"os"
	"path/filepath"
	"strings"
)

// invokedAs is how the user ran this command, for a command line it prints
// to run again: "go run ./cmd/morpheus" when go run built it (into a
// go-build directory of its own, inside a clone), "morpheus" otherwise (the
// installed command on PATH, as the README's commands assume).
func invokedAs() string {
	exe, err := os.Executable()
	if err == nil && goRunBinary(exe) {
		return "go run ./cmd/morpheus"
	}
	return "morpheus"
}

// goRunBinary reports whether exe is where go run puts the binary it
// builds: TMPDIR/go-buildNNN/bNNN/exe/NAME.
func goRunBinary(exe string) bool {
	dir := filepath.Dir(exe)
	if filepath.Base(dir) != "exe" {
		return false
	}
	return strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(dir))), "go-build")
}
