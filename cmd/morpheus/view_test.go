package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/results"
)

// writeReports writes a report per Check, under its package's path (two
// packages' tests of the same name do not collide), and an index that
// links them, naming the package, marking the failing ones.
func TestWriteReportsIndex(t *testing.T) {
	dir := t.TempDir()
	recs := []*results.Record{
		{Version: results.Version, Test: "TestOK", Package: "example.com/a", Strategy: "pos+ca", Iterations: 10, Steps: 100, Limit: 8},
		{Version: results.Version, Test: "TestOK", Package: "example.com/b", Strategy: "pos+ca", Iterations: 10, Steps: 100, Limit: 8},
		{Version: results.Version, Test: "TestBad/sub case", Strategy: "random", Iterations: 3, Failures: 1, Limit: 8,
			Failure: &results.Failure{Kind: "assertion", Task: "main", Message: "lost <update>\nmore", Steps: 9}},
	}
	paths, err := writeReports(dir, recs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com/a/TestOK.html", "example.com/b/TestOK.html", "TestBad_sub_case.html", "index.html"}
	if len(paths) != len(want) {
		t.Fatalf("paths %v", paths)
	}
	for i, p := range paths {
		if rel, _ := filepath.Rel(dir, p); filepath.ToSlash(rel) != want[i] {
			t.Errorf("path %d = %s, want %s", i, p, want[i])
		}
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, s := range []string{
		`<a href="example.com/a/TestOK.html">TestOK</a>`,
		`<a href="example.com/b/TestOK.html">TestOK</a>`,
		`<td>example.com/b</td>`,
		`<a href="TestBad_sub_case.html">TestBad/sub case</a>`,
		`<tr class="bad">`,
		"assertion failure in main: lost &lt;update&gt; …",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("index lacks %q", s)
		}
	}
	if strings.Count(out, `<tr class="bad">`) != 1 {
		t.Error("index marks more than the failing Check")
	}
	if _, err := writeReports(filepath.Join(dir, "index.html", "x"), recs); err == nil {
		t.Error("writeReports into a path under a file succeeded")
	}
}
