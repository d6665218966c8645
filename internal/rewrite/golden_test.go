package rewrite

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("rewrite", false, "rewrite the golden files of testdata/golden")

// Each directory of testdata/golden is a package; every file the rewriter
// changes has its expected output beside it as <file>.golden. checks,
// whose tests import morpheus, is a module of its own (a replace of
// morpheus), as a user's is: a package of morpheus's own module that
// imports morpheus loads all from source, the standard library too (7 s
// of CPU under -race, minutes on a busy machine); rewrite/fromsource
// compares the two loads.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/golden/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden packages: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			// In parallel: a package's load in this process (type-checking,
			// slowed by -race) overlaps another's compile check.
			t.Parallel()
			pkgs, err := Load(LoadConfig{Dir: dir, Patterns: []string{"."}})
			if err != nil {
				t.Fatal(err)
			}
			if len(pkgs) != 1 {
				t.Fatalf("loaded %d packages, want 1", len(pkgs))
			}
			compiles(t, dir, pkgs[0])
			for _, f := range pkgs[0].Files {
				golden := f.Path + ".golden"
				if !f.Changed {
					if _, err := os.Stat(golden); err == nil {
						t.Errorf("%s: not rewritten, but has a golden file", f.Path)
					}
					continue
				}
				checkLines(t, f)
				if *update {
					if err := os.WriteFile(golden, f.Out, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (refresh with go test -rewrite)", err)
				}
				if !bytes.Equal(f.Out, want) {
					t.Errorf("%s: rewritten source differs from %s (refresh with go test -rewrite):\n%s", f.Path, golden, f.Out)
				}
			}
		})
	}
}

// checkLines checks that the rewritten file keeps the original's lines:
// as many lines before the blank declarations appended at the end (and the
// //line directive that names them line 1, so that they keep their line
// whatever an edit does to the file's length).
func checkLines(t *testing.T, f *File) {
	t.Helper()
	src, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	out := string(f.Out)
	if i := strings.Index(out, "\n//line :1:1\nvar _ = "); i >= 0 {
		out = out[:i+1]
	}
	if got, want := strings.Count(out, "\n"), strings.Count(string(src), "\n"); got != want {
		t.Errorf("%s: %d lines rewritten, %d in the source", f.Path, got, want)
	}
}

// compiles builds the rewritten package and its tests through an overlay:
// the rewriter's output must be valid Go that type-checks against rt.
func compiles(t *testing.T, dir string, p *Package) {
	t.Helper()
	if testing.Short() {
		return
	}
	tmp := t.TempDir()
	replace := map[string]string{}
	for _, f := range p.Files {
		if f.Changed {
			out := filepath.Join(tmp, filepath.Base(f.Path)+".go")
			if err := os.WriteFile(out, f.Out, 0o644); err != nil {
				t.Fatal(err)
			}
			replace[f.Path] = out
		}
	}
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-c", "-o", os.DevNull, "-overlay", overlay, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the rewritten package does not build: %v\n%s", err, out)
	}
}
