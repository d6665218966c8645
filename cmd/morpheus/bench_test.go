package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchBinaryPerClone(t *testing.T) {
	cache := t.TempDir()
	a, b := benchBinary(cache, "/src/one"), benchBinary(cache, "/src/two")
	if a == b {
		t.Fatalf("two clones share the benchmarks' binary %s", a)
	}
	if again := benchBinary(cache, "/src/one"); again != a {
		t.Fatalf("the same clone's binary moved: %s, then %s", a, again)
	}
	if dir := filepath.Dir(a); dir != filepath.Join(cache, "morpheus") {
		t.Fatalf("binary %s not in the cache's morpheus directory", a)
	}
	if !strings.HasPrefix(filepath.Base(a), "morpheus-bench-") {
		t.Fatalf("binary %s not named for the benchmarks", a)
	}
}

// Without MORPHEUS_SRC, morpheus bench builds the benchmarks of the clone
// this command was built from: this repository's root, which has bench/.
func TestSourceDir(t *testing.T) {
	t.Setenv("MORPHEUS_SRC", "")
	got, err := sourceDir()
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("sourceDir() = %s, want the clone's root %s", got, want)
	}
}
