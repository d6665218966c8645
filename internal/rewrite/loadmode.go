package rewrite

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The rewrite reads the syntax and types of the packages of modules (those
// it rewrites, and those whose writes to their globals or calls that reach
// the network it must see); of the standard library it needs the types
// only. Loaded with packages.NeedDeps, every package of the load is parsed
// and type-checked from source, the standard library (runtime, reflect,
// net, …) too: seconds even for a small module, paid again after every
// edit. Without NeedDeps, the packages the patterns match (and their test
// variants) come from source and the others from the export data of the
// go command's build cache, which an edit does not change: the same
// types, a fraction of the time. That is only right when every package of
// a module in the load is one the patterns match; when one is not (a
// dependency in the module cache, a package of the module the patterns
// leave out, morpheus itself, a package recompiled for another's tests),
// the load keeps NeedDeps.

// sourceMode returns the load mode for cfg: loadMode without
// packages.NeedDeps when every package of a module in the load is a root.
func sourceMode(cfg LoadConfig) (packages.LoadMode, error) {
	pc := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir: cfg.Dir, Env: cfg.Env, Tests: true}
	roots, err := packages.Load(pc, cfg.Patterns...)
	if err != nil {
		return 0, fmt.Errorf("loading %s: %w", strings.Join(cfg.Patterns, " "), err)
	}
	if rootsCoverModules(roots) {
		return loadMode &^ packages.NeedDeps, nil
	}
	return loadMode, nil
}

// rootsCoverModules reports whether every package of a module reachable
// from roots is one of them.
func rootsCoverModules(roots []*packages.Package) bool {
	root := map[*packages.Package]bool{}
	for _, r := range roots {
		root[r] = true
	}
	ok := true
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module != nil && !root[p] {
			ok = false
		}
	})
	return ok
}
