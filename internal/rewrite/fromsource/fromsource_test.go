package fromsource_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// TestMain runs the cases at once (proctest's parallelism rather than
// GOMAXPROCS): each waits for go list and type-checks for minutes.
func TestMain(m *testing.M) {
	proctest.Main()
	os.Exit(m.Run())
}

// Loading the standard library from export data when the patterns match
// every package of a module in the load rewrites every file as loading all
// from source does, byte for byte, with the same issues: all of a module
// whose packages import each other, and part of one, whose imports become
// roots; so does loading another module's packages in a second load
// (testdata/depmod: a global of another module written by a test, tests
// that reach the real network through another module's function, method
// and a third package), and a package that imports morpheus
// (testdata/checks). (A load from source type-checks the standard library
// it imports, minutes under -race on a busy machine, once for all the
// cases (rewrite.LoadFromSource): one case of each plan; the plans of the
// others are TestPlanLoad's.)
func TestLoadFromExportDataSameOutput(t *testing.T) {
	cases := []rewrite.LoadConfig{{Dir: "../testdata/neighbours", Patterns: []string{"./..."}}, {Dir: "../testdata/incr", Patterns: []string{"./mid"}},
		{Dir: "../testdata/depmod", Patterns: []string{"./..."}}, {Dir: "../testdata/checks", Patterns: []string{"./..."}}}
	for _, cfg := range cases {
		t.Run(cfg.Dir+"/"+cfg.Patterns[0], func(t *testing.T) {
			// In parallel, all four at once (TestMain): their loads from
			// source share the standard library's type-check, each
			// waiting for the packages another is checking.
			t.Parallel()
			fast, err := rewrite.Load(cfg)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := rewrite.LoadFromSource(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(fast) != len(slow) || len(fast) == 0 {
				t.Fatalf("%d packages, from source %d", len(fast), len(slow))
			}
			for i, p := range fast {
				q := slow[i]
				if p.Path != q.Path || p.Err != q.Err || len(p.Files) != len(q.Files) || len(p.Issues) != len(q.Issues) {
					t.Fatalf("package %s (err %q, %d files, %d issues), from source %s (err %q, %d files, %d issues)",
						p.Path, p.Err, len(p.Files), len(p.Issues), q.Path, q.Err, len(q.Files), len(q.Issues))
				}
				for j, f := range p.Files {
					if f.Path != q.Files[j].Path || !bytes.Equal(f.Out, q.Files[j].Out) || f.Changed != q.Files[j].Changed {
						t.Errorf("%s rewritten differently than from source", f.Path)
					}
				}
				for j, is := range p.Issues {
					if is.String() != q.Issues[j].String() {
						t.Errorf("issue %s, from source %s", is, q.Issues[j])
					}
				}
			}
		})
	}
}
