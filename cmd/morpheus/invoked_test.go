package main

import (
	"path/filepath"
	"testing"
)

// The demo's replay line names the command as the user ran it: go run's
// binary sits in a go-build directory; an installed one does not.
func TestGoRunBinary(t *testing.T) {
	for _, c := range []struct {
		exe  string
		want bool
	}{
		{"/tmp/go-build123456/b001/exe/morpheus", true},
		{"/home/u/go/bin/morpheus", false},
		{"/tmp/morpheus-cli42/morpheus", false},
		{"/tmp/exe/morpheus", false},
	} {
		if got := goRunBinary(filepath.FromSlash(c.exe)); got != c.want {
			t.Errorf("goRunBinary(%s) = %v, want %v", c.exe, got, c.want)
		}
	}
}
