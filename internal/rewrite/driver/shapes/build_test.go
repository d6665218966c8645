package shapes_test

import (
	"context"
	"strings"
	"sync"
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
	cfg.BuildOnly = true
	// The three builds at once, each in a cache of its own, so that none
	// waits for another's: go test's default vet of every package, and
	// -vet=off and -vet=atomic,bool of the packages it stopped.
	builds := []struct {
		vet      string
		patterns []string
		pkgs     map[string]*driver.PackageSummary
		err      error
	}{{"", []string{"./..."}, nil, nil}, {"off", []string{"./finding", "./nobody"}, nil, nil}, {"atomic,bool", []string{"./finding"}, nil, nil}}
	var wg sync.WaitGroup
	for i := range builds {
		b := &builds[i]
		c := cfg
		c.Vet, c.Patterns, c.Cache = b.vet, b.patterns, t.TempDir()
		wg.Add(1)
		go func() {
			defer wg.Done()
			sum, err := driver.Run(context.Background(), c)
			if b.err = err; err != nil {
				return
			}
			b.pkgs = map[string]*driver.PackageSummary{}
			for _, p := range sum.Packages {
				b.pkgs[strings.TrimPrefix(p.Path, "example.com/vet/")] = p
			}
		}()
	}
	wg.Wait()
	for _, b := range builds {
		if b.err != nil {
			t.Fatalf("-vet=%q: %v", b.vet, b.err)
		}
	}
	errOf := func(p *driver.PackageSummary) string {
		if p == nil || p.Err == nil {
			return ""
		}
		return p.Err.Error()
	}
	def := builds[0].pkgs
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
	for _, b := range builds[1:] {
		vet, m := b.vet, b.pkgs
		if p := m["finding"]; p.Err != nil || p.Binary == "" {
			t.Errorf("-vet=%s: finding did not build: %v", vet, p.Err)
		}
		if e := errOf(m["nobody"]); vet == "off" && (!strings.Contains(e, "nobody/nobody.go:13:6: missing function body") || strings.Contains(e, "files/")) {
			t.Errorf("-vet=%s: nobody: want the compile error at the user's line, got %q", vet, e)
		}
	}
	cfg.Patterns = []string{"./finding"}
	// A name that is no analyzer of go vet, or one of its flags that is not
	// an analyzer's, is rejected as go test rejects it.
	for _, bad := range []string{"nosuch", "json"} {
		cfg.Vet = "atomic," + bad
		if _, err := driver.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "found "+bad) {
			t.Errorf("-vet=%s: %v", cfg.Vet, err)
		}
	}
}
