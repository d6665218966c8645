package rewrite

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Loading the standard library from export data when the patterns match
// every package of a module in the load rewrites every file as loading all
// from source does, byte for byte, with the same issues: all of a module
// whose packages import each other, and part of one, whose imports become
// roots; so does loading another module's packages in a second load
// (testdata/depmod: a global of another module written by a test, tests
// that reach the real network through another module's function, method
// and a third package), and a package that imports morpheus
// (testdata/checks). (Every load from source type-checks the whole
// standard library again, minutes under -race on a busy machine: one case
// of each plan; the plans of the others are TestPlanLoad's.)
func TestLoadFromExportDataSameOutput(t *testing.T) {
	cases := []LoadConfig{{Dir: "testdata/neighbours", Patterns: []string{"./..."}}, {Dir: "testdata/incr", Patterns: []string{"./mid"}},
		{Dir: "testdata/depmod", Patterns: []string{"./..."}}, {Dir: "testdata/checks", Patterns: []string{"./..."}}}
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
// own, so that the load takes the standard library from export data; the
// packages of other modules become the roots of a second load, but
// morpheus's (export data).
func TestPlanLoad(t *testing.T) {
	for _, c := range []struct {
		dir, pattern string
		deps         bool
		extra, other []string
	}{
		{"testdata/incr", "./...", false, nil, nil},
		{"testdata/incr", "./mid", false, []string{"example.com/incr/leaf"}, nil},
		{"testdata/incr", "./top", false, nil, nil},
		{"testdata/checks", "./...", false, nil, nil},
		{"testdata/depmod", "./...", false, nil, []string{"example.com/helper/netx", "example.com/helper/state"}},
	} {
		plan, _, err := planLoad(LoadConfig{Dir: c.dir, Patterns: []string{c.pattern}})
		if err != nil {
			t.Fatal(err)
		}
		if got := plan.mode&packages.NeedDeps != 0; got != c.deps || !slices.Equal(plan.extra, c.extra) || !slices.Equal(plan.deps, c.other) {
			t.Errorf("%s %s: NeedDeps %v, extra roots %q, second load %q; want %v, %q, %q", c.dir, c.pattern, got, plan.extra, plan.deps, c.deps, c.extra, c.other)
		}
	}
}

// The tests of testdata/depmod that reach the real network through another
// module's packages, loaded in the second load, are found: the call graph
// joins the two loads by name.
func TestRealNetAcrossLoads(t *testing.T) {
	pkgs, err := Load(LoadConfig{Dir: "testdata/depmod", Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pkgs {
		for _, is := range p.Issues {
			if s := is.String(); strings.Contains(s, "on the real network") {
				got = append(got, p.Path+": "+s)
			}
		}
	}
	want := []string{"TestServer runs once on the real network", "TestFetch runs once on the real network"}
	if len(got) != len(want) {
		t.Fatalf("real-network issues %q, want 2: %q", got, want)
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("issue %q, want %q", got[i], w)
		}
	}
}
