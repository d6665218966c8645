package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// The two data files of "morpheus bench modules": the suite (which modules,
// at which versions) and the expectations (which failures under morpheus are
// known, and why). Both are plain text, one entry a line, fields separated by
// blanks, # starting a comment line.

// modEntry is one module of the suite.
type modEntry struct {
	Module   string // module path, or a directory (Local)
	Version  string // pinned version; "-" for a local directory
	Packages string // the package pattern, e.g. ./...
	Notes    string
	Local    string // the directory's absolute path when Module names one
	Line     int
}

// Name is the module's name in reports: its path, or a local directory's
// base name.
func (e modEntry) Name() string {
	if e.Local != "" {
		return filepath.Base(e.Local)
	}
	return e.Module
}

// parseSuite decodes a suite file: per line "MODULE VERSION PACKAGES
// [NOTES...]". MODULE starting with "./", "../" or "/" is a directory
// (relative to dir, the file's directory) whose VERSION is "-".
func parseSuite(file, dir string, r io.Reader) ([]modEntry, error) {
	var out []modEntry
	seen := map[string]int{}
	err := eachLine(r, func(n int, fields []string, rest func(int) string) error {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", file, n, fmt.Sprintf(format, args...))
		}
		if len(fields) < 3 {
			return bad("expected MODULE VERSION PACKAGES [NOTES], found %d field(s)", len(fields))
		}
		e := modEntry{Module: fields[0], Version: fields[1], Packages: fields[2], Notes: rest(3), Line: n}
		if isLocalModule(e.Module) {
			if e.Version != "-" {
				return bad("a local directory %s takes version \"-\", not %q", e.Module, e.Version)
			}
			p := e.Module
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			e.Local = p
		} else {
			if !validModulePath(e.Module) {
				return bad("expected a module path (host/path) or a directory (./dir), found %q", e.Module)
			}
			if !validVersion(e.Version) {
				return bad("expected a pinned version (vX.Y.Z...) for %s, found %q", e.Module, e.Version)
			}
		}
		if !strings.HasPrefix(e.Packages, ".") {
			return bad("expected a package pattern relative to the module (./... or ./sub/...), found %q", e.Packages)
		}
		if prev, ok := seen[e.Module]; ok {
			return bad("module %s is already listed at line %d", e.Module, prev)
		}
		seen[e.Module] = n
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no modules listed", file)
	}
	return out, nil
}

func isLocalModule(m string) bool {
	return strings.HasPrefix(m, "./") || strings.HasPrefix(m, "../") || strings.HasPrefix(m, "/")
}

// validModulePath is a light check: a dotted first element and no blanks
// or characters a module path cannot hold.
func validModulePath(m string) bool {
	first, _, _ := strings.Cut(m, "/")
	if !strings.Contains(first, ".") || strings.HasPrefix(m, ".") || strings.HasSuffix(m, "/") {
		return false
	}
	for _, c := range m {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~/", c)) {
			return false
		}
	}
	return !strings.Contains(m, "//")
}

func validVersion(v string) bool {
	if len(v) < 2 || v[0] != 'v' || v[1] < '0' || v[1] > '9' {
		return false
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-.+", c)) {
			return false
		}
	}
	return true
}

// expectation is one known failure under morpheus: a real bug (with its
// evidence) or a named limitation (with the flag that lifts it).
type expectation struct {
	Module  string // as in the suite
	Package string // import path, or "." / "./sub" relative to the module
	Test    string
	Kind    string // the failure's kind, or "*" for any
	Class   string // "bug" or "limit"
	Flag    string // a limitation's flag, e.g. -allowleaks
	Note    string // a bug's evidence, a limitation's explanation
	Line    int
}

const (
	classBug   = "bug"
	classLimit = "limit"
)

// parseExpectations decodes an expectations file: per line
//
//	MODULE PACKAGE TEST KIND bug EVIDENCE...
//	MODULE PACKAGE TEST KIND limit FLAG EXPLANATION...
func parseExpectations(file string, r io.Reader) ([]expectation, error) {
	var out []expectation
	seen := map[string]int{}
	err := eachLine(r, func(n int, fields []string, rest func(int) string) error {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", file, n, fmt.Sprintf(format, args...))
		}
		if len(fields) < 5 {
			return bad("expected MODULE PACKAGE TEST KIND bug EVIDENCE or MODULE PACKAGE TEST KIND limit FLAG NOTE, found %d field(s)", len(fields))
		}
		x := expectation{Module: fields[0], Package: fields[1], Test: fields[2], Kind: fields[3], Class: fields[4], Line: n}
		if !strings.HasPrefix(x.Test, "Test") {
			return bad("expected a top-level test name (TestX), found %q", x.Test)
		}
		switch x.Class {
		case classBug:
			x.Note = rest(5)
			if x.Note == "" {
				return bad("a real bug needs its evidence (a plain-Go reproduction or go test -race output, summarised) after \"bug\"")
			}
		case classLimit:
			if len(fields) < 6 || !strings.HasPrefix(fields[5], "-") || len(fields[5]) < 2 {
				return bad("a limitation needs the flag that lifts it (e.g. -allowleaks) after \"limit\"")
			}
			x.Flag, x.Note = fields[5], rest(6)
			if x.Note == "" {
				return bad("a limitation needs its explanation after the flag %s", x.Flag)
			}
		default:
			return bad("expected \"bug\" or \"limit\" after the kind, found %q", x.Class)
		}
		key := x.Module + " " + x.Package + " " + x.Test + " " + x.Kind
		if prev, ok := seen[key]; ok {
			return bad("%s %s %s is already listed at line %d", x.Package, x.Test, x.Kind, prev)
		}
		seen[key] = n
		out = append(out, x)
		return nil
	})
	return out, err
}

// eachLine calls f for every line that is neither blank nor a comment,
// with its number, its fields and rest(i), the text from field i on.
func eachLine(r io.Reader, f func(n int, fields []string, rest func(int) string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		rest := func(i int) string {
			s := line
			for k := 0; k < i && s != ""; k++ {
				s = strings.TrimLeft(s, " \t")
				if j := strings.IndexAny(s, " \t"); j >= 0 {
					s = s[j:]
				} else {
					s = ""
				}
			}
			return strings.TrimSpace(s)
		}
		if err := f(n, fields, rest); err != nil {
			return err
		}
	}
	return sc.Err()
}

// pkgMatches reports whether an expectation's package names pkg, the
// import path of a package of module mod (whose path is modPath).
func (x expectation) pkgMatches(modPath, pkg string) bool {
	if x.Package == pkg {
		return true
	}
	if x.Package == "." {
		return pkg == modPath
	}
	if rel, ok := strings.CutPrefix(x.Package, "./"); ok {
		return pkg == modPath+"/"+rel
	}
	return false
}
