package doccheck

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// publicPackages are the packages of the API, by the name docs qualify
// their identifiers with, and their directories.
var publicPackages = map[string]string{
	"morpheus":   ".",
	"csync":      "csync",
	"memnet":     "csync/memnet",
	"strategy":   "strategy",
	"trace":      "trace",
	"rt":         "rt",
	"linearize":  "linearize",
	"tracepoint": "tracepoint",
}

// exported returns the exported names of the package in dir: its
// constants, variables, functions and types, and as "T.M" the methods and
// fields of its types.
func exported(t *testing.T, dir string) map[string]bool {
	t.Helper()
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	names := map[string]bool{}
	d, err := doc.NewFromFiles(fset, files, bp.ImportPath)
	if err != nil {
		t.Fatal(err)
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				names[n] = true
			}
		}
	}
	values(d.Consts)
	values(d.Vars)
	for _, f := range d.Funcs {
		names[f.Name] = true
	}
	for _, ty := range d.Types {
		names[ty.Name] = true
		values(ty.Consts)
		values(ty.Vars)
		for _, f := range ty.Funcs {
			names[f.Name] = true
		}
		for _, m := range ty.Methods {
			names[ty.Name+"."+m.Name] = true
		}
		for _, s := range ty.Decl.Specs {
			st, ok := s.(*ast.TypeSpec).Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, f := range st.Fields.List {
				for _, n := range f.Names {
					names[ty.Name+"."+n.Name] = true
				}
			}
		}
	}
	return names
}

// apiName is an identifier of the API as docs write it in code spans:
// package.Name, or package.Type.Member.
var apiName = regexp.MustCompile(`\b(morpheus|csync|memnet|strategy|trace|rt|linearize|tracepoint)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)

// TestDocsNameTheAPI checks that every identifier of the API that README.md
// and docs/*.md name in code (package.Name, package.Type.Member) exists:
// renamed or removed names do not linger in the docs. BENCHMARKS.md, a
// record of measurements made on the code of their day, is not checked.
func TestDocsNameTheAPI(t *testing.T) {
	root := repoRoot(t)
	api := map[string]map[string]bool{}
	for name, dir := range publicPackages {
		api[name] = exported(t, filepath.Join(root, dir))
	}
	for _, f := range docFiles(t, root) {
		if f == "BENCHMARKS.md" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range unknownNames(api, f, string(src)) {
			t.Error(e)
		}
	}
}

// unknownNames returns, for each identifier of the API that src (the file
// f) names in a code span and api does not hold, where and which.
func unknownNames(api map[string]map[string]bool, f, src string) []string {
	var out []string
	for i, line := range strings.Split(src, "\n") {
		for _, span := range codeSpans(line) {
			for _, m := range apiName.FindAllStringSubmatch(span, -1) {
				name := m[2]
				if m[3] != "" {
					name += "." + m[3]
				}
				if !api[m[1]][name] {
					out = append(out, fmt.Sprintf("%s:%d: %s.%s: no such identifier in package %s", f, i+1, m[1], name, m[1]))
				}
			}
		}
	}
	return out
}

// The check finds a removed name, a missing member and a name outside any
// code span is prose, not checked.
func TestUnknownNames(t *testing.T) {
	api := map[string]map[string]bool{"morpheus": {"Check": true, "Failure": true, "Failure.Report": true}}
	src := "`morpheus.Check(t, f)` and `f := morpheus.Failure{}; f.Report()`\n" +
		"`morpheus.CountHits(hit)`, `morpheus.Failure.Hits`; morpheus.Gone in prose\n"
	got := unknownNames(api, "x.md", src)
	want := []string{
		"x.md:2: morpheus.CountHits: no such identifier in package morpheus",
		"x.md:2: morpheus.Failure.Hits: no such identifier in package morpheus",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// codeSpans returns the `code spans` of a Markdown line.
func codeSpans(line string) []string {
	parts := strings.Split(line, "`")
	var spans []string
	for i := 1; i < len(parts); i += 2 {
		spans = append(spans, parts[i])
	}
	return spans
}
