package doccheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// modulePackages lists the packages of the module in dir (go list ./...),
// as paths relative to the repository's root ("." for the root package).
func modulePackages(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list in %s: %v", dir, err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "github.com/morpheus-go/morpheus"), "/")
		if rel == "" {
			rel = "."
		}
		pkgs = append(pkgs, rel)
	}
	return pkgs
}

// layoutPackages returns the packages README.md's layout table names in
// its first column.
func layoutPackages(t *testing.T, root string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(src), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no Layout section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	code := regexp.MustCompile("`([^`]+)`")
	var pkgs []string
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range code.FindAllStringSubmatch(cells[1], -1) {
			pkgs = append(pkgs, m[1])
		}
	}
	return pkgs
}

// TestLayoutTableListsPackages checks that README.md's layout table names
// every package of both modules (the library's and bench/'s), and nothing
// that is not one.
func TestLayoutTableListsPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	root := repoRoot(t)
	have := append(modulePackages(t, root), modulePackages(t, filepath.Join(root, "bench"))...)
	table := layoutPackages(t, root)
	for _, p := range have {
		if !slices.Contains(table, p) {
			t.Errorf("README.md's layout table does not name the package %s", p)
		}
	}
	for _, p := range table {
		if !slices.Contains(have, p) {
			t.Errorf("README.md's layout table names %s, which go list does not list", p)
		}
	}
}

// TestStrategyNamesParse checks the names strategy/doc.go lists against
// strategy.Parse: every listed name (its parameters D, K, B given small
// numbers) parses, with and without "+ca", and every kind Parse accepts
// is listed.
func TestStrategyNamesParse(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "strategy", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(src), "// # Names\n")
	if !ok {
		t.Fatal("strategy/doc.go has no Names section")
	}
	sec, _, _ = strings.Cut(sec, "Parse builds one")
	quoted := regexp.MustCompile(`"([^"]+)"`)
	listed := map[string]bool{}
	for _, m := range quoted.FindAllStringSubmatch(sec, -1) {
		name := m[1]
		if name == "+ca" {
			continue
		}
		kind, _, _ := strings.Cut(name, ":")
		listed[kind] = true
		concrete := strings.NewReplacer("D", "3", "K", "10", "B", "2").Replace(name)
		for _, n := range []string{concrete, concrete + "+ca"} {
			if _, err := strategy.Parse(n); err != nil {
				t.Errorf("strategy/doc.go lists %q, which Parse rejects: %v", name, err)
			}
		}
	}
	if len(listed) == 0 {
		t.Fatal("no names found in strategy/doc.go's Names section")
	}
	// The kinds Parse accepts: those of the case labels of its switch on the
	// kind (strategy/parse.go) that parse (pct with its depth); a label
	// that only explains a rejection ("replay") is not a name.
	parse, err := os.ReadFile(filepath.Join(repoRoot(t), "strategy", "parse.go"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := regexp.MustCompile(`(?m)^\tcase ("[^\n]+"):$`).FindAllStringSubmatch(string(parse), -1)
	if len(kinds) == 0 {
		t.Fatal("no case labels found in strategy/parse.go")
	}
	for _, m := range kinds {
		for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
			kind := q[1]
			name := kind
			if kind == "pct" {
				name = "pct:3"
			}
			if _, err := strategy.Parse(name); err != nil {
				continue // listed ones were checked to parse above
			}
			if !listed[kind] {
				t.Errorf("strategy %q: Parse accepts it, strategy/doc.go does not list it", kind)
			}
		}
	}
}
