package rewrite

import (
	"fmt"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Package is a rewritten package: its files that changed, and what cannot
// be controlled in it.
type Package struct {
	Path   string
	Dir    string
	Module *packages.Module // nil for a package outside modules
	Files  []*File          // every Go file of the package; Out nil if unchanged
	Issues []Issue
	// Err, if not "", is why the package or its tests do not build as
	// written (their errors, or those of a package they import), at the
	// user's file:line: go test would not build them either. The other
	// packages of the load are rewritten and tested as usual.
	Err string
}

// LoadConfig says which packages to load.
type LoadConfig struct {
	Dir      string   // where to run the go command
	Patterns []string // package patterns, as for go test
	Env      []string // the go command's environment, nil for os.Environ
	// Exclude lists import-path prefixes not to rewrite, besides the
	// standard library and morpheus itself.
	Exclude []string
	// Relocated is a directory (the module cache) whose files will be
	// compiled from another path: they get //line directives naming them.
	Relocated string

	// Only, if not empty, lists the import paths, of the packages the
	// patterns match, whose tests the caller builds (a shard's): the load
	// rewrites their files and those of the packages they import, each
	// as the load of all the patterns does, and not the others
	// (loadonly.go).
	Only []string

	// noWriters leaves out, with Only, the writes of the packages outside
	// the closure (a test's check that they matter).
	noWriters bool

	// allFromSource type-checks every package of the load from source,
	// the standard library too, even when the patterns match every
	// package whose syntax the rewrite reads (fromsource.go).
	allFromSource bool

	// Shadow, if not nil, maps the standard packages rewritten code
	// imports the shadows of (shadow.go) to the shadows' paths: their
	// servers and clients are then no reason to run a test on the real
	// network.
	Shadow map[string]string

	// Marks: the functions of the main module's packages mark their
	// entry (FileOptions.Marks).
	Marks bool
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule

// Load loads the packages matched by the patterns with their tests, and
// rewrites them and their non-standard dependencies. The result is sorted
// by import path; test variants are merged into their package.
func Load(cfg LoadConfig) ([]*Package, error) {
	plan := loadPlan{mode: loadMode}
	patterns := cfg.Patterns
	var only *onlyPlan
	if !cfg.allFromSource {
		p, roots, err := planLoad(cfg)
		if err != nil {
			return nil, err
		}
		plan = p
		if len(cfg.Only) > 0 && plan.mode&packages.NeedDeps == 0 {
			if op, ok := planOnly(roots, cfg.Only); ok {
				only, plan, patterns = &op, op.plan, op.patterns
			}
		}
	}
	fset := token.NewFileSet()
	var pkgs, deps []*packages.Package
	var err error
	if cfg.allFromSource {
		pkgs, err = sourceLoad(cfg, patterns) // fromsource.go
	} else {
		pkgs, deps, err = typedLoad(cfg, fset, plan, patterns)
	}
	if err != nil {
		return nil, err
	}
	pkgs = plan.patternRoots(pkgs)
	broken := brokenPackages(pkgs)
	maps.Copy(broken, brokenPackages(deps))
	// Every package with syntax: the roots' graph, then the other modules'.
	all := slices.Concat(pkgs, deps)
	failed := rootErrors(pkgs, broken, cfg.Dir)
	if only == nil && len(failed) > 0 && len(failed) == len(rootPaths(pkgs)) {
		// Nothing to test: the load itself failed (no such package, or
		// none that builds), as go test would.
		var errs []string
		for _, path := range slices.Sorted(maps.Keys(failed)) {
			errs = append(errs, failed[path]...)
		}
		return nil, fmt.Errorf("loading %s:\n\t%s", strings.Join(cfg.Patterns, " "), strings.Join(errs, "\n\t"))
	}
	if cfg.Shadow != nil && shadowConflict(all, cfg.Exclude, cfg.Shadow) {
		// A package that is not rewritten would hand the standard
		// library's net/http types to code that sees the shadow's: the
		// load keeps the standard library's (shadowimports.go).
		cfg.Shadow = nil
	}
	// The package-level variables written: every package of a module can
	// name those of the rewritten ones; the standard library cannot.
	globals := NewGlobals()
	addWrites := func(p *packages.Package) {
		switch {
		case broken[p]:
		case rewritable(p, cfg.Exclude):
			globals.AddPackage(p.PkgPath, p.Syntax, p.TypesInfo)
		case p.Module != nil && p.TypesInfo != nil:
			globals.AddWrites(p.Syntax, p.TypesInfo)
		}
	}
	packages.Visit(all, nil, addWrites)
	if only != nil && !cfg.noWriters {
		// Of a shard's closure: the writes of the other packages
		// (loadonly.go).
		if mains, others := only.writers(all, globals); len(mains)+len(others) > 0 {
			wp, wd, err := typedLoad(cfg, fset, loadPlan{mode: plan.mode, deps: others}, mains)
			if err != nil {
				return nil, err
			}
			ws := slices.Concat(wp, wd)
			maps.Copy(broken, brokenPackages(ws))
			packages.Visit(ws, nil, func(p *packages.Package) {
				if only.contrib[p.ID] && !only.closure[p.ID] {
					addWrites(p)
				}
			})
		}
	}
	globals.Complete = true
	// The functions that reach the real network, across the load: a test
	// may reach one through a helper of another package.
	realNet := NewRealNet()
	realNet.shadowed = cfg.Shadow
	packages.Visit(all, nil, func(p *packages.Package) {
		if p.Module != nil && p.TypesInfo != nil {
			realNet.AddPackage(p.Syntax, p.TypesInfo, p.Fset)
		}
	})
	realNets := realNet.Complete()
	byFile := map[string]*File{}
	out := map[string]*Package{}
	var firstErr error
	packages.Visit(all, nil, func(p *packages.Package) {
		if firstErr != nil || broken[p] || !rewritable(p, cfg.Exclude) {
			return
		}
		path := strings.TrimSuffix(p.PkgPath, "_test")
		rp := out[path]
		if rp == nil {
			rp = &Package{Path: path, Dir: pkgDir(p), Module: p.Module}
			out[path] = rp
		}
		checkTests := CheckTests(p.Syntax, p.TypesInfo)
		for i, f := range p.Syntax {
			name := p.CompiledGoFiles[i]
			if _, done := byFile[name]; done || !strings.HasSuffix(name, ".go") || strings.Contains(name, string(os.PathSeparator)+"go-build") {
				continue // in another variant already, or generated (_testmain.go, cgo)
			}
			src, err := os.ReadFile(name)
			if err != nil {
				firstErr = err
				return
			}
			opts := FileOptions{Test: strings.HasSuffix(name, "_test.go"), NeedGo121: needGo121(p.Module), CheckTests: checkTests,
				Globals: globals, RealNet: realNets, MainNet: realNet.Main(), NetSites: realNet.Sites(), NetRoots: realNet.NetRoots(),
				Shadow: cfg.Shadow, Marks: cfg.Marks && p.Module != nil && p.Module.Main}
			if cfg.Relocated != "" && strings.HasPrefix(name, cfg.Relocated+string(os.PathSeparator)) {
				opts.LineFile = name
			}
			rf, err := RewriteFile(p.Fset, f, src, p.TypesInfo, opts)
			if err != nil {
				firstErr = err
				return
			}
			byFile[name] = rf
			rp.Files = append(rp.Files, rf)
			rp.Issues = append(rp.Issues, rf.Issues...)
		}
	})
	if firstErr != nil {
		return nil, firstErr
	}
	for path, errs := range failed {
		if out[path] == nil {
			out[path] = &Package{Path: path}
		}
		out[path].Err = strings.Join(errs, "\n")
	}
	res := make([]*Package, 0, len(out))
	for _, p := range out {
		sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
		sort.Slice(p.Issues, func(i, j int) bool { return p.Issues[i].String() < p.Issues[j].String() })
		res = append(res, p)
	}
	sort.Slice(res, func(i, j int) bool { return res[i].Path < res[j].Path })
	return res, nil
}

// typedLoad loads patterns (with their tests) and plan's other roots with
// syntax and types as plan says, and the other modules' packages (plan.deps)
// in a load of their own (loadmode.go), at the same time.
func typedLoad(cfg LoadConfig, fset *token.FileSet, plan loadPlan, patterns []string) (pkgs, deps []*packages.Package, err error) {
	var depsErr error
	depsDone := make(chan struct{})
	go func() {
		defer close(depsDone)
		if len(plan.deps) > 0 {
			dc := &packages.Config{Mode: plan.mode, Dir: cfg.Dir, Env: cfg.Env, Fset: fset}
			deps, depsErr = packages.Load(dc, plan.deps...)
		}
	}()
	if len(patterns)+len(plan.extra) > 0 {
		pc := &packages.Config{Mode: plan.mode, Dir: cfg.Dir, Env: cfg.Env, Tests: true, Fset: fset}
		pkgs, err = packages.Load(pc, append(slices.Clip(patterns), plan.extra...)...)
	}
	<-depsDone
	if err == nil {
		err = depsErr
	}
	if err != nil {
		return nil, nil, fmt.Errorf("loading %s: %w", strings.Join(cfg.Patterns, " "), err)
	}
	return pkgs, deps, nil
}

// rewritable reports whether p is rewritten: not the standard library, not
// morpheus, not excluded, and not a generated test main.
func rewritable(p *packages.Package, exclude []string) bool {
	if p.Module == nil || strings.HasSuffix(p.PkgPath, ".test") || len(p.Syntax) == 0 {
		return false
	}
	if p.Module.Path == morpheusModule && !strings.Contains(p.PkgPath, "/testdata/") {
		return false
	}
	for _, e := range exclude {
		if p.PkgPath == e || strings.HasPrefix(p.PkgPath, e+"/") {
			return false
		}
	}
	return true
}

func pkgDir(p *packages.Package) string {
	if p.Dir != "" {
		return p.Dir
	}
	if len(p.GoFiles) > 0 {
		return p.GoFiles[0][:strings.LastIndex(p.GoFiles[0], string(os.PathSeparator))]
	}
	return ""
}

// needGo121 reports whether a module's go version is older than go1.22:
// its files get a //go:build go1.21 line, which keeps the language version
// they were written for (loop variables shared by all iterations; generic
// inference as in go1.21) when the build's alternate go.mod, which requires
// morpheus, names a newer go version. A module without a go directive is
// go1.16 to the go command.
func needGo121(m *packages.Module) bool {
	if m == nil {
		return false
	}
	v := m.GoVersion
	if v == "" && m.GoMod != "" {
		v = "1.16"
		if data, err := os.ReadFile(m.GoMod); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "go" {
					v = f[1]
					break
				}
			}
		}
	}
	var major, minor int
	if _, err := fmt.Sscanf(v, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major == 1 && minor < 22
}

// brokenPackages returns the packages of the load that have errors or
// import one that has.
func brokenPackages(roots []*packages.Package) map[*packages.Package]bool {
	broken := map[*packages.Package]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		// Visit calls post after the package's imports: their verdicts
		// are known.
		bad := len(p.Errors) > 0
		for _, imp := range p.Imports {
			bad = bad || broken[imp]
		}
		if bad {
			broken[p] = true
		}
	})
	return broken
}

// rootPaths returns the import paths the load's roots are tests of: a
// package, its test variants and its test main share one.
func rootPaths(roots []*packages.Package) map[string]bool {
	paths := map[string]bool{}
	for _, r := range roots {
		paths[rootPath(r)] = true
	}
	return paths
}

func rootPath(r *packages.Package) string {
	return strings.TrimSuffix(strings.TrimSuffix(r.PkgPath, ".test"), "_test")
}

// rootErrors returns, per import path whose package or tests are broken,
// the errors that break it (its own and those of the packages it imports),
// each once, positions relative to dir as the go command shows them.
func rootErrors(roots []*packages.Package, broken map[*packages.Package]bool, dir string) map[string][]string {
	failed := map[string][]string{}
	seen := map[string]map[string]bool{}
	for _, r := range roots {
		if !broken[r] {
			continue
		}
		path := rootPath(r)
		if seen[path] == nil {
			seen[path] = map[string]bool{}
		}
		packages.Visit([]*packages.Package{r}, nil, func(p *packages.Package) {
			for _, e := range p.Errors {
				for _, msg := range errorLines(e, dir) {
					if !seen[path][msg] {
						seen[path][msg] = true
						failed[path] = append(failed[path], msg)
					}
				}
			}
		})
	}
	return failed
}

// errorLines is a load error as lines the go command prints: a compiler's
// output that the go command gives for a package it built for export data
// ("# path [path.test]" and the compiler's lines, which the type checker
// reports again) as its lines without the header, any other error as
// errorText.
func errorLines(e packages.Error, dir string) []string {
	if (e.Pos != "" && e.Pos != "-") || !strings.HasPrefix(e.Msg, "# ") {
		return []string{errorText(e, dir)}
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(e.Msg), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "# ") {
			out = append(out, l)
		}
	}
	return out
}

// errorText is a load error as the go command prints it: its position
// relative to dir when that is shorter, then its message.
func errorText(e packages.Error, dir string) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	pos := e.Pos
	if abs, err := filepath.Abs(dir); err == nil && filepath.IsAbs(pos) {
		if rel, err := filepath.Rel(abs, pos); err == nil && len(rel) < len(pos) && !strings.HasPrefix(rel, "..") {
			pos = rel
		}
	}
	return pos + ": " + e.Msg
}
