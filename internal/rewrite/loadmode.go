package rewrite

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The rewrite reads the syntax and types of the packages of modules (those
// it rewrites, and those whose writes to their globals or calls that reach
// the network it must see); of the standard library it needs the types
// only. Loaded with packages.NeedDeps, every package of the load is parsed
// and type-checked from source, the standard library (runtime, reflect,
// net, …) too: seconds even for a small module, paid again after every
// edit. Without NeedDeps, the load's roots come from source and the other
// packages from the export data of the go command's build cache, which an
// edit does not change: the same types, a fraction of the time.
//
// So the roots must be every package of a module in the load: the
// patterns' packages (and their test variants), plus the main module's
// packages they import, added as patterns of their own. Those come with
// their tests, which the load type-checks but nothing else sees: the
// rewrite walks the graph from the patterns' roots only, as a load with
// NeedDeps does. A package of another module (the module cache, a
// replacement) cannot be made such a root: its tests would come too, and
// their imports need not be in the main module's go.mod. Those are the
// roots of a second load, without tests, again without NeedDeps; the facts
// that cross packages (Globals, RealNet) name variables and functions by
// package path and name, so that the objects of one package's two loads
// (its syntax in one, its export data in the other) are one. Morpheus's
// own packages (tests that call Check), which are not rewritten, stay
// export data. A package recompiled for another package's tests cannot be
// a root either; with one in the load, it keeps NeedDeps.

// morpheusModule is morpheus's module path.
const morpheusModule = "github.com/morpheus-go/morpheus"

// loadPlan is how Load loads: its mode, the patterns it adds, and the IDs
// of the roots the user's patterns give (nil: every root).
type loadPlan struct {
	mode  packages.LoadMode
	extra []string
	roots map[string]bool
	deps  []string // other modules' packages: the second load's roots
}

// planLoad lists cfg's packages (no types) and plans their load; it
// returns the listing's roots too.
func planLoad(cfg LoadConfig) (loadPlan, []*packages.Package, error) {
	pc := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir: cfg.Dir, Env: cfg.Env, Tests: true}
	roots, err := packages.Load(pc, cfg.Patterns...)
	if err != nil {
		return loadPlan{}, nil, fmt.Errorf("loading %s: %w", strings.Join(cfg.Patterns, " "), err)
	}
	extra, deps, ok := extraRoots(roots)
	if !ok {
		return loadPlan{mode: loadMode}, roots, nil
	}
	plan := loadPlan{mode: loadMode &^ packages.NeedDeps, extra: extra, deps: deps}
	if len(extra) > 0 {
		plan.roots = map[string]bool{}
		for _, r := range roots {
			plan.roots[r.ID] = true
		}
	}
	return plan, roots, nil
}

// extraRoots returns the import paths of the main module's packages that
// roots import and are not among them, and those of the packages of other
// modules, but morpheus, in the load, each sorted, and whether those make
// every package of a module in the load a root of one of the two loads.
func extraRoots(roots []*packages.Package) (extra, deps []string, ok bool) {
	root := map[*packages.Package]bool{}
	for _, r := range roots {
		root[r] = true
	}
	ok = true
	packages.Visit(roots, nil, func(p *packages.Package) {
		switch {
		case p.Module == nil || root[p]:
		case p.ID != p.PkgPath:
			ok = false // recompiled for a test
		case p.Module.Main && p.Module.Path != morpheusModule:
			extra = append(extra, p.PkgPath)
		case !p.Module.Main && p.Module.Path != morpheusModule:
			deps = append(deps, p.PkgPath)
		case !p.Module.Main:
			// morpheus: not rewritten, export data.
		default:
			ok = false
		}
	})
	slices.Sort(extra)
	slices.Sort(deps)
	return extra, deps, ok
}

// patternRoots keeps, of a load's roots, those of the user's patterns, in
// their order.
func (l loadPlan) patternRoots(pkgs []*packages.Package) []*packages.Package {
	if l.roots == nil {
		return pkgs
	}
	var out []*packages.Package
	for _, p := range pkgs {
		if l.roots[p.ID] {
			out = append(out, p)
		}
	}
	return out
}
