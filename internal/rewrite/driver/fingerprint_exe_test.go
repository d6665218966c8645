package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A rebuilt morpheus (the program that rewrites) changes the fingerprint,
// though neither the module nor morpheus's source did: its rewriter may
// differ.
func TestFingerprintNamesTheRewriter(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "morpheus")
	if err := os.WriteFile(exe, []byte("one build"), 0o755); err != nil {
		t.Fatal(err)
	}
	defer func(old func() (string, error)) { executable = old }(executable)
	executable = func() (string, error) { return exe, nil }
	cfg := Config{Dir: "../testdata/lockorder", Patterns: []string{"."}}
	env := append(os.Environ(), "GOWORK=off")
	gomod, _ := filepath.Abs("../testdata/lockorder/go.mod")
	fp := func() string {
		t.Helper()
		s, _, err := fingerprint(context.Background(), cfg, env, gomod, "go1")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := fp()
	if again := fp(); again != first {
		t.Fatal("the fingerprint changed with nothing changed")
	}
	later := time.Now().Add(time.Hour)
	if err := os.WriteFile(exe, []byte("another build"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if fp() == first {
		t.Fatal("a rebuilt morpheus left the fingerprint as it was")
	}
}
