package morpheus

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

var updateSettings = flag.Bool("update-settings", false, "rewrite the settings table of README.md from flags.go")

// codeOnly are the Options that no flag or environment variable can
// express, and why: a function, or what only code knows.
var codeOnly = map[string]string{
	"Name":           "code only: the test name recorded in traces (Check uses the test's)",
	"ScaledDuration": "code only: a time budget scaled by the first iteration, which morpheus test gives each rewritten test",
	"TimeLimit":      "code only: a wall-clock bound of the run, the iteration running at it (or at 2 GiB more heap) cut (uncounted, no failure); morpheus test gives each rewritten test a minute",
}

const (
	settingsBegin = "<!-- settings table: generated from flags.go by go test -run TestSettingsTable -update-settings; do not edit -->"
	settingsEnd   = "<!-- end of the settings table -->"
)

// TestSettingsTable checks that every Option has a -morpheus.* flag and a
// MORPHEUS_* variable of its own name, or is listed in codeOnly, and that
// README.md's table of settings is the one this test renders from the
// Options and flags.go's settings.
func TestSettingsTable(t *testing.T) {
	opts := optionFuncs(t)
	byName := map[string]*setting{}
	for _, s := range settings {
		byName[s.name] = s
	}
	for name := range opts {
		_, flagged := byName[strings.ToLower(name)]
		_, only := codeOnly[name]
		switch {
		case flagged && only:
			t.Errorf("option %s has a flag and is listed as code only", name)
		case !flagged && !only:
			t.Errorf("option %s has no -morpheus.%s flag: add it to settings in flags.go, or to codeOnly with the reason", name, strings.ToLower(name))
		}
	}
	for name := range codeOnly {
		if _, ok := opts[name]; !ok {
			t.Errorf("codeOnly lists %s, which is no Option", name)
		}
	}
	table := renderSettings(opts)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(readme), settingsBegin+"\n")
	_, after, ok2 := strings.Cut(rest, settingsEnd)
	if !ok1 || !ok2 {
		t.Fatalf("README.md has no settings table between %q and %q", settingsBegin, settingsEnd)
	}
	got := strings.TrimSuffix(rest, settingsEnd+after)
	if got == table {
		return
	}
	if *updateSettings {
		if err := os.WriteFile("README.md", []byte(before+settingsBegin+"\n"+table+settingsEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's settings table differs from flags.go's; run go test -run TestSettingsTable -update-settings. Want:\n%s", table)
}

// optionFuncs returns the package's exported functions that return an
// Option, with their parameter names ("Shard" -> "i, n").
func optionFuncs(t *testing.T) map[string]string {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	opts := map[string]string{}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !fd.Name.IsExported() || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 {
				continue
			}
			if id, ok := fd.Type.Results.List[0].Type.(*ast.Ident); !ok || id.Name != "Option" {
				continue
			}
			var params []string
			for _, p := range fd.Type.Params.List {
				for _, pn := range p.Names {
					params = append(params, pn.Name)
				}
			}
			opts[fd.Name.Name] = strings.Join(params, ", ")
		}
	}
	if len(opts) == 0 {
		t.Fatal("found no Option functions")
	}
	return opts
}

// renderSettings renders the table of settings: one row per setting in
// flags.go's order, then the code-only Options.
func renderSettings(opts map[string]string) string {
	optionOf := map[string]string{}
	for name, params := range opts {
		optionOf[strings.ToLower(name)] = fmt.Sprintf("`%s(%s)`", name, params)
	}
	var b strings.Builder
	b.WriteString("| Option | flag of the test binary | environment variable | what it sets |\n|---|---|---|---|\n")
	for _, s := range settings {
		opt, ok := optionOf[s.name]
		if !ok {
			opt = "—"
		}
		fl := "`-morpheus." + s.name + "`"
		for _, a := range s.aliases {
			fl += " (alias `-morpheus." + a + "`)"
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s |\n", opt, fl, envName(s.name), strings.ReplaceAll(s.usage, "|", "\\|"))
	}
	var only []string
	for name := range codeOnly {
		only = append(only, name)
	}
	sort.Strings(only)
	for _, name := range only {
		fmt.Fprintf(&b, "| `%s(%s)` | — | — | %s |\n", name, opts[name], codeOnly[name])
	}
	return b.String()
}
