package driver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// The shapes of untyped constants, untyped nil and named types that Go
// accepts where the rewritten calls are generic (testdata/untyped: make's
// size, directional makes, nil and concrete values sent in select cases on
// channels of interfaces, a select in init) build and pass under control.
func TestUntypedShapes(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "untyped", 20, 1)
	sum := explore(t, cfg)
	tests := sum.Packages[0].Tests
	if len(tests) != 4 {
		t.Errorf("%d tests, want 4", len(tests))
	}
	for _, ts := range tests {
		if ts.Failure != "" || ts.Schedules != cfg.Schedules {
			t.Errorf("%s: %d schedules, failure:\n%s", ts.Name, ts.Schedules, ts.Failure)
		}
	}
}

// The build is the one go test does (testdata/vet, a go 1.23 module): vet
// runs go test's checks for the module's own go version, so non-constant
// printf formats build (oldprintf); a real finding stops the package's
// build at the user's file:line (finding), and -vet=off or a list without
// printf builds it; a compile error is reported at the user's file:line,
// not at the rewritten file's in the cache (nobody); a package that does
// not type-check (undefined), and one whose tests import it (importer), fail
// at the user's line, and the others still build.
func TestVetAsGoTest(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "vet", 1, 1)
	cfg.Patterns, cfg.BuildOnly = []string{"./..."}, true
	build := func(vet string) map[string]*driver.PackageSummary {
		t.Helper()
		cfg.Vet = vet
		sum, err := driver.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]*driver.PackageSummary{}
		for _, p := range sum.Packages {
			m[strings.TrimPrefix(p.Path, "example.com/vet/")] = p
		}
		return m
	}
	errOf := func(p *driver.PackageSummary) string {
		if p == nil || p.Err == nil {
			return ""
		}
		return p.Err.Error()
	}
	def := build("")
	if p := def["oldprintf"]; p.Err != nil || p.Binary == "" {
		t.Errorf("oldprintf did not build: %v", p.Err)
	}
	if e := errOf(def["finding"]); !strings.Contains(e, "finding/sum_test.go:16:28: fmt.Sprintf format %d has arg \"three\" of wrong type string") || strings.Contains(e, "files/") {
		t.Errorf("finding: want vet's finding at the user's line, got %q", e)
	}
	if e := errOf(def["nobody"]); !strings.Contains(e, "nobody/nobody.go:13:6: missing function body") || strings.Contains(e, "files/") {
		t.Errorf("nobody: want the compile error at the user's line, got %q", e)
	}
	for _, name := range []string{"undefined", "importer"} {
		if e := errOf(def[name]); !strings.Contains(e, "undefined/undefined.go:6:28: undefined: answer") {
			t.Errorf("%s: want the type error at the user's line, got %q", name, e)
		}
	}
	cfg.Patterns = []string{"./finding", "./nobody"}
	for _, vet := range []string{"off", "atomic,bool"} {
		m := build(vet)
		if p := m["finding"]; p.Err != nil || p.Binary == "" {
			t.Errorf("-vet=%s: finding did not build: %v", vet, p.Err)
		}
		if e := errOf(m["nobody"]); vet == "off" && (!strings.Contains(e, "nobody/nobody.go:13:6: missing function body") || strings.Contains(e, "files/")) {
			t.Errorf("-vet=%s: nobody: want the compile error at the user's line, got %q", vet, e)
		}
		cfg.Patterns = []string{"./finding"}
	}
	// A name that is no analyzer of go vet, or one of its flags that is not
	// an analyzer's, is rejected as go test rejects it.
	for _, bad := range []string{"nosuch", "json"} {
		cfg.Vet = "atomic," + bad
		if _, err := driver.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "found "+bad) {
			t.Errorf("-vet=%s: %v", cfg.Vet, err)
		}
	}
}
