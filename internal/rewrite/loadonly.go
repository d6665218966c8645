package rewrite

import (
	"go/ast"
	"go/types"
	"os"
	"slices"
	"unicode"

	"golang.org/x/tools/go/packages"
)

// A shard of a run (LoadConfig.Only) builds the tests of some of the
// patterns' packages only: it needs the rewrite of the files compiled into
// those binaries (their packages and the module packages they import, the
// closure), each byte for byte as the load of all the patterns rewrites
// it, so that the shards together run what one unsharded run does. The
// rewrite of a file reads two facts that cross packages: which functions
// reach the real network (RealNet), which depend on the functions a
// function calls, all in the closure; and which package-level variables
// are written (Globals), which any package of the load may write, the
// closure's own or the standard library's: a package outside the closure
// that imports the variable's package, or the variable's package's own
// tests when only the package is in the closure. So the shard loads the
// closure, then, of the other packages of the whole load, those that may
// write a variable the closure's files use (they import its package, or
// are that package's test variant, and their files hold its name as a
// word: naming it is the only way to write it), in a second load whose
// only use is their writes. A package whose writes the whole load would
// not see (a test variant of a package the patterns only import) is left
// out of those, as the whole load leaves it. When the whole load is from
// source (loadMode with NeedDeps, loadmode.go), the shard loads it all.

// onlyPlan is the load of a shard's closure: its plan, the IDs of the
// packages of the whole load whose writes Globals records, and the
// closure's.
type onlyPlan struct {
	plan     loadPlan
	patterns []string
	contrib  map[string]bool
	closure  map[string]bool
	all      []*packages.Package // the whole load's roots, as listed (no types)
}

// planOnly plans the load of the closure of the packages at paths, given
// the whole load's roots (planLoad's listing); ok is false if the whole
// load is from source.
func planOnly(roots []*packages.Package, paths []string) (onlyPlan, bool) {
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	var own []*packages.Package
	for _, r := range roots {
		if want[rootPath(r)] {
			own = append(own, r)
		}
	}
	extra, deps, ok := extraRoots(own)
	if !ok || len(own) == 0 {
		return onlyPlan{}, false
	}
	op := onlyPlan{plan: loadPlan{mode: loadMode &^ packages.NeedDeps, extra: extra, deps: deps, roots: map[string]bool{}},
		contrib: moduleIDs(roots), closure: moduleIDs(own), all: roots}
	for _, r := range own {
		op.plan.roots[r.ID] = true
	}
	op.patterns = slices.Sorted(func(yield func(string) bool) {
		for p := range want {
			if !yield(p) {
				return
			}
		}
	})
	return op, true
}

// moduleIDs returns the IDs of the packages of modules (not morpheus's)
// in roots' graph.
func moduleIDs(roots []*packages.Package) map[string]bool {
	ids := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module != nil && p.Module.Path != morpheusModule {
			ids[p.ID] = true
		}
	})
	return ids
}

// writers returns the packages of the whole load outside the closure that
// may write a package-level variable that loaded (the closure, typed)
// uses: the main module's by path, loaded with their tests, and the other
// modules' (Load's second load).
func (op onlyPlan) writers(loaded []*packages.Package) (main, other []string) {
	// The variables the closure's files use, by package path.
	used := map[string]map[string]bool{}
	packages.Visit(loaded, nil, func(p *packages.Package) {
		if p.TypesInfo == nil {
			return
		}
		for _, m := range []map[*ast.Ident]types.Object{p.TypesInfo.Uses, p.TypesInfo.Defs} {
			for _, obj := range m {
				if v, ok := obj.(*types.Var); ok && isGlobal(v) {
					path := v.Pkg().Path()
					if used[path] == nil {
						used[path] = map[string]bool{}
					}
					used[path][v.Name()] = true
				}
			}
		}
	})
	// A test variant's files but those of its package: the tests'.
	plain := map[string]bool{}
	packages.Visit(op.all, nil, func(p *packages.Package) {
		if p.ID == p.PkgPath {
			for _, f := range p.GoFiles {
				plain[f] = true
			}
		}
	})
	words := map[string]map[string]bool{} // a file's words
	seen := map[string]bool{}
	var mains, others []string
	packages.Visit(op.all, nil, func(p *packages.Package) {
		if !op.contrib[p.ID] || op.closure[p.ID] {
			return
		}
		names := map[string]bool{}
		for n := range used[p.PkgPath] {
			names[n] = true
		}
		for _, imp := range p.Imports {
			for n := range used[imp.PkgPath] {
				names[n] = true
			}
		}
		files := p.GoFiles
		if p.ID != p.PkgPath {
			files = slices.DeleteFunc(slices.Clone(files), func(f string) bool { return plain[f] })
		}
		if len(names) == 0 || !anyWord(files, names, words) {
			return
		}
		path := rootPath(p)
		if p.Module.Main {
			if !seen[path] {
				mains = append(mains, path)
			}
		} else if !seen[path] {
			others = append(others, p.PkgPath)
		}
		seen[path] = true
	})
	slices.Sort(mains)
	slices.Sort(others)
	return mains, others
}

// anyWord reports whether one of files holds one of names as a word (an
// identifier's characters between others), keeping each file's words.
func anyWord(files []string, names map[string]bool, words map[string]map[string]bool) bool {
	for _, f := range files {
		w, ok := words[f]
		if !ok {
			w = map[string]bool{}
			if src, err := os.ReadFile(f); err != nil {
				return true // unread: may write
			} else {
				for _, word := range identWords(src) {
					w[word] = true
				}
			}
			words[f] = w
		}
		for n := range names {
			if w[n] {
				return true
			}
		}
	}
	return false
}

// identWords splits src into its runs of identifier characters.
func identWords(src []byte) []string {
	var out []string
	start := -1
	for i, r := range string(src) {
		ident := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case ident && start < 0:
			start = i
		case !ident && start >= 0:
			out = append(out, string(src[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, string(src[start:]))
	}
	return out
}
