package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
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
// write a variable the closure's files use and do not write themselves
// (they import its package, or are that package's test variant, and name
// it where a write, an address or a method value takes it: writtenNames,
// without types), in a second load whose only use is their writes. A package whose writes the whole load would
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
// uses and does not write itself (g): the main module's by path, loaded
// with their tests, and the other modules' (Load's second load).
func (op onlyPlan) writers(loaded []*packages.Package, g *Globals) (main, other []string) {
	// The variables the closure's files use, by package path.
	used := map[string]map[string]bool{}
	packages.Visit(loaded, nil, func(p *packages.Package) {
		if p.TypesInfo == nil {
			return
		}
		for _, m := range []map[*ast.Ident]types.Object{p.TypesInfo.Uses, p.TypesInfo.Defs} {
			for _, obj := range m {
				if v, ok := obj.(*types.Var); ok && isGlobal(v) && !g.written[keyOf(v)] {
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
	cache := map[string]*fileNames{}
	fset := token.NewFileSet()
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
		if len(names) == 0 || !mayWrite(fset, files, names, cache) {
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

// mayWrite reports whether one of files may write a package-level
// variable named by one of names: it names one as the root of what a
// write, an address or a method value takes (writtenNames). A file that
// holds none of them as a word is not parsed; files keeps each file's
// words and such names.
func mayWrite(fset *token.FileSet, files []string, names map[string]bool, cache map[string]*fileNames) bool {
	for _, f := range files {
		fn := cache[f]
		if fn == nil {
			fn = &fileNames{words: map[string]bool{}}
			cache[f] = fn
			src, err := os.ReadFile(f)
			if err != nil {
				fn.words = nil // unread: may write
			}
			for _, w := range identWords(src) {
				fn.words[w] = true
			}
		}
		if fn.words == nil {
			return true
		}
		if !anyOf(fn.words, names) {
			continue
		}
		if fn.written == nil {
			af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				return true // the load reports it, or may write
			}
			fn.written = writtenNames(af)
		}
		if anyOf(fn.written, names) {
			return true
		}
	}
	return false
}

// fileNames are a file's words and the names it may write.
type fileNames struct{ words, written map[string]bool }

func anyOf(set, names map[string]bool) bool {
	for n := range names {
		if set[n] {
			return true
		}
	}
	return false
}

// writtenNames returns the names that may be a package-level variable the
// file writes, as the memory pass's scan (locality.go) finds writes with
// types, here without: the identifiers at the root of an assignment's
// left side (but a declaration's, whose variables are local), of an
// increment, of a range clause's assigned key and value (none of those at
// the top level of an init function, as scan has it), of an address
// taken, of a slice expression's operand, and of any selector's operand
// (a method value or call with a pointer receiver takes its address),
// each through parentheses, index expressions and selectors (a field of a
// variable, or a qualified identifier: both names are taken).
func writtenNames(f *ast.File) map[string]bool {
	out := map[string]bool{}
	root := func(e ast.Expr) {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
			case *ast.Ident:
				out[x.Name] = true
				return
			case *ast.SelectorExpr:
				out[x.Sel.Name] = true
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			default:
				return
			}
		}
	}
	// init: the top level of an init function, whose assignments to
	// package-level variables are their initialisation (as in scan).
	var walk func(n ast.Node, init bool)
	walk = func(n ast.Node, init bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				walk(n.Body, false)
				return false
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE && !init {
					for _, l := range n.Lhs {
						root(l)
					}
				}
			case *ast.IncDecStmt:
				if !init {
					root(n.X)
				}
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN && !init {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if e != nil {
							root(e)
						}
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					root(n.X)
				}
			case *ast.SliceExpr:
				root(n.X)
			case *ast.SelectorExpr:
				root(n.X)
			}
			return true
		})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		walk(d, ok && fd.Recv == nil && fd.Name.Name == "init")
	}
	return out
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
