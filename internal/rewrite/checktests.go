package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// Tests that use morpheus themselves (morpheus.Check, morpheus.Explore) are
// not wrapped in rt.Test: they run as they are, and Check explores their
// schedules; what the rewriter does in them still counts (a go statement
// is rt.Go, which starts a goroutine of the Check's iteration). Wrapping
// them would run a Check inside a schedule of rt.Test.
//
// The rule: a test function is left unwrapped when its body (closures
// included) names anything of the package github.com/morpheus-go/morpheus
// (Check, Explore, Env, an option, a type), or calls a function or method
// of its own package that does, directly or through others of its package,
// or calls a function of another package (outside morpheus's module) that
// imports github.com/morpheus-go/morpheus (a shared test helper). Calls
// through function values are not followed.

// morpheusRoot is the import path of morpheus's root package.
var morpheusRoot = strings.TrimSuffix(rtPath, "/rt")

// CheckTests returns the functions and methods declared in files (one
// package, type-checked into info) that use morpheus by the rule above.
func CheckTests(files []*ast.File, info *types.Info) map[types.Object]bool {
	direct := map[types.Object]bool{}
	calls := map[types.Object][]types.Object{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj := info.Defs[fd.Name]
			if obj == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				u := info.Uses[id]
				if u == nil || u.Pkg() == nil {
					return true
				}
				if fn, ok := u.(*types.Func); ok {
					u = fn.Origin()
				}
				switch {
				case u.Pkg().Path() == morpheusRoot:
					direct[obj] = true
				case u.Pkg() == obj.Pkg():
					if _, ok := u.(*types.Func); ok {
						calls[obj] = append(calls[obj], u)
					}
				case importsMorpheus(u):
					direct[obj] = true
				}
				return true
			})
		}
	}
	// Spread along the calls until nothing changes.
	for changed := true; changed; {
		changed = false
		for caller, callees := range calls {
			if direct[caller] {
				continue
			}
			for _, c := range callees {
				if direct[c] {
					direct[caller], changed = true, true
					break
				}
			}
		}
	}
	return direct
}

// importsMorpheus reports whether u is a function of a package outside
// morpheus's module that imports morpheus's root package.
func importsMorpheus(u types.Object) bool {
	if _, ok := u.(*types.Func); !ok {
		return false
	}
	p := u.Pkg().Path()
	if p == morpheusRoot || strings.HasPrefix(p, morpheusRoot+"/") {
		return false
	}
	for _, imp := range u.Pkg().Imports() {
		if imp.Path() == morpheusRoot {
			return true
		}
	}
	return false
}
