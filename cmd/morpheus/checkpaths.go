package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// checkPaths names the files of a Check's corpus (its record names them
// relative to its package's directory, where the test ran) as the user
// names them where morpheus test ran, and the command that replays one
// from there: a driver.PackageSummary in rewrite mode, plainPaths under
// -rewrite=false.
type checkPaths interface {
	Shown(path string) string
	ReplayCommand(path, test string) string
}

// asRecorded names the files as the record does and has no replay command:
// a record whose package's directory is not known (morpheus merge).
type asRecorded struct{}

func (asRecorded) Shown(path string) string            { return path }
func (asRecorded) ReplayCommand(string, string) string { return "" }

// plainPaths names a Check's files under morpheus test -rewrite=false,
// where go test ran the package in its directory dir, relative to the
// working directory ("" for the working directory itself) or absolute
// outside it; its replay command is morpheus test -rewrite=false -replay.
type plainPaths struct{ dir string }

func (p plainPaths) Shown(path string) string {
	if filepath.IsAbs(path) {
		return underWorkDir(path)
	}
	if p.dir == "" {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(filepath.Join(p.dir, path))
}

func (p plainPaths) ReplayCommand(path, test string) string {
	pkg := "."
	switch {
	case filepath.IsAbs(p.dir):
		pkg = p.dir
	case p.dir != "":
		pkg = "./" + filepath.ToSlash(p.dir)
	}
	return "morpheus test -rewrite=false -replay " + driver.ShellQuote(p.Shown(path)) +
		" -run '" + runPattern(test) + "' " + driver.ShellQuote(pkg)
}

// underWorkDir returns an absolute path relative to the working directory
// when it lies under it, else as it is.
func underWorkDir(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return filepath.ToSlash(rel)
}

// plainPackagePaths returns, for each package of recs (an import path, or
// the directory of a package outside a module), the checkPaths of its
// Checks under -rewrite=false: its directory, which go list finds for an
// import path. A package go list does not find names its files as
// recorded.
func plainPackagePaths(recs []*results.Record) map[string]checkPaths {
	paths := map[string]checkPaths{}
	var imports []string
	for _, r := range recs {
		if _, ok := paths[r.Package]; ok || r.Package == "" {
			continue
		}
		if filepath.IsAbs(r.Package) {
			paths[r.Package] = plainPaths{dir: relDir(r.Package)}
			continue
		}
		paths[r.Package] = asRecorded{}
		imports = append(imports, r.Package)
	}
	if len(imports) == 0 {
		return paths
	}
	cmd := exec.Command("go", append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}"}, imports...)...)
	out, err := cmd.Output()
	if err != nil {
		return paths
	}
	for _, l := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		path, dir, ok := strings.Cut(l, "\t")
		if _, asked := paths[path]; ok && asked && dir != "" {
			paths[path] = plainPaths{dir: relDir(dir)}
		}
	}
	return paths
}

// relDir is the directory dir relative to the working directory, "" for
// the working directory itself, absolute outside it.
func relDir(dir string) string {
	if rel := underWorkDir(dir); rel != "." {
		return rel
	}
	return ""
}
