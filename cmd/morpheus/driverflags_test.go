package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A package pattern that names a directory that does not exist is a usage
// error naming it; import paths and patterns that exist pass.
func TestCheckLocalPattern(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pattern, want string
	}{
		{".", ""}, {"./...", ""}, {"./a", ""}, {"./a/...", ""}, {"./a/b", ""}, {"./a...", ""},
		{"example.com/x/...", ""}, {filepath.Join(dir, "a"), ""},
		{"./nope", "package ./nope: no such directory"},
		{"./nope/...", "package ./nope/...: no such directory"},
		{"../" + filepath.Base(dir) + "/nope", "no such directory"},
		{"./f.go", "is not a directory"},
	} {
		err := checkLocalPattern(dir, c.pattern)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("checkLocalPattern(%q) = %v, want %q", c.pattern, err, c.want)
		}
	}
}
