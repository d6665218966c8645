package rewrite

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

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
