package rewrite

import (
	"bytes"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Loading the standard library from export data when the patterns match
// every package of a module in the load rewrites every file as loading all
// from source does, byte for byte, with the same issues: all of a module
// whose packages import each other, and part of one, whose imports become
// roots. (One case of each: every load from source type-checks the whole
// standard library again, minutes under -race on a busy machine; the plans
// of the others are TestPlanLoad's. Not testdata/golden ./...: its load is
// from source already.)
func TestLoadFromExportDataSameOutput(t *testing.T) {
	cases := []LoadConfig{{Dir: "testdata/neighbours", Patterns: []string{"./..."}}, {Dir: "testdata/incr", Patterns: []string{"./mid"}}}
	for _, cfg := range cases {
		t.Run(cfg.Dir+"/"+cfg.Patterns[0], func(t *testing.T) {
			// In parallel: loading all from source type-checks the standard
			// library, minutes under -race on a busy machine for each case.
			t.Parallel()
			fast, err := Load(cfg)
			if err != nil {
				t.Fatal(err)
			}
			full := cfg
			full.allFromSource = true
			slow, err := Load(full)
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

// The main module's packages the patterns import become roots of their
// own, so that the load takes the standard library from export data; a
// package of another module keeps the load from source.
func TestPlanLoad(t *testing.T) {
	for _, c := range []struct {
		dir, pattern string
		deps         bool
		extra        []string
	}{
		{"testdata/incr", "./...", false, nil},
		{"testdata/incr", "./mid", false, []string{"example.com/incr/leaf"}},
		{"testdata/incr", "./top", false, nil},
		{"testdata/checks", "./...", true, nil},
		// Packages of morpheus's own module: all the golden ones, one of
		// which imports morpheus, from source; one alone from export data.
		{"testdata/golden", "./...", true, nil},
		{"testdata/golden/edge", ".", false, nil},
	} {
		plan, err := planLoad(LoadConfig{Dir: c.dir, Patterns: []string{c.pattern}})
		if err != nil {
			t.Fatal(err)
		}
		if got := plan.mode&packages.NeedDeps != 0; got != c.deps || !slices.Equal(plan.extra, c.extra) {
			t.Errorf("%s %s: NeedDeps %v, extra roots %q; want %v, %q", c.dir, c.pattern, got, plan.extra, c.deps, c.extra)
		}
	}
}
