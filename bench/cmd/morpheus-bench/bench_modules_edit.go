package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The edit–rerun loop of bench modules: after the warm run, the bench
// makes a one-line edit in its copy of the module, a declaration appended
// to the first non-test file of one package (the module's root package when
// it has tests and such a file, else the first package with both), and
// times, each after an edit
// of its own: go test -race -count=1 of that package, morpheus test of that
// package, and morpheus test of every package (as the warm run). Then it
// adds a line to a function's body instead (the first function of the file
// with a body of several lines: "_ = N" at its start) and times morpheus
// test of the package again: an edit of a body alone, after which a test
// that executed none of the changed functions keeps its outcome. The file
// is put back as it was afterwards.

// editTimes are a module's edit–rerun times.
type editTimes struct {
	EditPackage string  `json:"edit_package,omitempty"` // the package edited
	EditFile    string  `json:"edit_file,omitempty"`    // its file, relative to the module
	EditRace    float64 `json:"edit_race_seconds"`      // go test -race -count=1 of the package after an edit
	EditPkg     float64 `json:"edit_package_seconds"`   // morpheus test of the package after an edit
	EditAll     float64 `json:"edit_seconds"`           // morpheus test of every package after an edit
	EditError   string  `json:"edit_error,omitempty"`   // why the edit could not be made
	// After a line added to a function's body (bodyEdit), on top of the
	// last edit: morpheus test of the package.
	EditBodyFunc  string  `json:"edit_body_func,omitempty"`
	EditBodyPkg   float64 `json:"edit_body_package_seconds"`
	EditBodyError string  `json:"edit_body_error,omitempty"` // why no body was edited
}

// add sums the times of another module's edits.
func (t *editTimes) add(u editTimes) {
	t.EditRace += u.EditRace
	t.EditPkg += u.EditPkg
	t.EditAll += u.EditAll
	t.EditBodyPkg += u.EditBodyPkg
}

// bodyEdit returns src with the line "_ = n" added at the start of the
// body of its first function (not init) whose body spans several lines,
// and that function's name.
func bodyEdit(src []byte, n int) ([]byte, string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, "", err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Name.Name == "init" || fd.Name.Name == "_" ||
			fset.Position(fd.Body.Lbrace).Line == fset.Position(fd.Body.Rbrace).Line {
			continue
		}
		at := fset.Position(fd.Body.Lbrace).Offset + 1
		if at >= len(src) || src[at] != '\n' {
			continue // a comment or a statement after the brace
		}
		line := fmt.Sprintf("\n\t_ = %d // morpheus bench modules: a one-line edit of a body", n)
		out := append(append(slices.Clip(src[:at]), line...), src[at:]...)
		return out, fd.Name.Name, nil
	}
	return nil, "", fmt.Errorf("no function with a body of several lines")
}

// editLine is the declaration the n-th edit appends: a change of the
// package's code (a comment would change its source only), the same
// package builds and behaves as before.
func editLine(n int) string {
	return fmt.Sprintf("\nvar _ = %d // morpheus bench modules: a one-line edit\n", n)
}

// editCandidates are the packages to edit, in order of preference, among
// pkgs (those with tests): the module's root package first.
func editCandidates(modPath string, pkgs []string) []string {
	if !slices.Contains(pkgs, modPath) {
		return pkgs
	}
	out := []string{modPath}
	for _, p := range pkgs {
		if p != modPath {
			out = append(out, p)
		}
	}
	return out
}

// editFile returns a non-test Go file of pkg that the build compiles, the
// first by name (go list's order).
func editFile(dir, pkg string, env []string) (string, error) {
	out, err := runBounded(dir, env, 5*time.Minute, "go", "list", "-f", "{{.Dir}}\t{{join .GoFiles \"\\t\"}}", pkg)
	if err != nil {
		return "", fmt.Errorf("go list %s: %v", pkg, err)
	}
	fields := strings.Split(strings.TrimSpace(string(out)), "\t")
	if len(fields) < 2 || fields[1] == "" {
		return "", fmt.Errorf("%s has no non-test Go file to edit", pkg)
	}
	return filepath.Join(fields[0], fields[1]), nil
}

// measureEdits times the edit–rerun loop of the module in dir (see above)
// with the warm run's rewrite cache.
func measureEdits(self, dir, cache, modPath string, pkgs []string, env []string, timeout time.Duration) editTimes {
	var t editTimes
	var pkg, file string
	err := fmt.Errorf("no package with tests")
	for _, p := range editCandidates(modPath, pkgs) {
		if file, err = editFile(dir, p, env); err == nil {
			pkg = p
			break
		}
	}
	if err != nil {
		t.EditError = err.Error()
		return t
	}
	orig, err := os.ReadFile(file)
	if err != nil {
		t.EditError = err.Error()
		return t
	}
	defer os.WriteFile(file, orig, 0o644)
	t.EditPackage = pkg
	if rel, err := filepath.Rel(dir, file); err == nil {
		t.EditFile = filepath.ToSlash(rel)
	}
	n := 0
	edit := func() error {
		n++
		return os.WriteFile(file, append(slices.Clip(orig), editLine(n)...), 0o644)
	}
	timed := func(run func()) float64 {
		if err := edit(); err != nil {
			t.EditError = err.Error()
			return 0
		}
		start := time.Now()
		run()
		return time.Since(start).Seconds()
	}
	t.EditRace = timed(func() { runBounded(dir, env, 3*timeout, "go", "test", "-race", "-count=1", pkg) })
	t.EditPkg = timed(func() { runMorpheus(self, dir, cache, []string{pkg}, env, timeout) })
	t.EditAll = timed(func() { runMorpheus(self, dir, cache, pkgs, env, timeout) })
	// The last edit's file, with a line added to a body: the run before
	// (of every package, the edited one with the same command) differs
	// from it in that body only.
	body, fn, err := bodyEdit(orig, n)
	if err != nil {
		t.EditBodyError = err.Error()
		return t
	}
	if err := os.WriteFile(file, append(body, editLine(n)...), 0o644); err != nil {
		t.EditBodyError = err.Error()
		return t
	}
	t.EditBodyFunc = fn
	start := time.Now()
	runMorpheus(self, dir, cache, []string{pkg}, env, timeout)
	t.EditBodyPkg = time.Since(start).Seconds()
	return t
}
