package rewrite

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// LoadFromSource is Load with every package of the load type-checked from
// source, the standard library too, even when the patterns match every
// package whose syntax the rewrite reads: what Load's plans, which take the
// standard library from export data, must match byte for byte. It is for
// the test that compares the two (package rewrite/fromsource).
//
// The packages are type-checked as go/packages does with NeedDeps (the
// same parse, types.Config and types.Info), but the standard library's
// are type-checked once per process and shared by every LoadFromSource,
// all in one file set: each load type-checked the standard library anew,
// minutes under -race on a busy machine for each of the test's cases.
func LoadFromSource(cfg LoadConfig) ([]*Package, error) {
	cfg.allFromSource = true
	return Load(cfg)
}

// fromSource holds the standard library's packages as loads from source
// type-checked them, by ID and compiled files (another environment's
// package, other files, is another), for every later load from source.
var fromSource = struct {
	fset *token.FileSet // every load from source's
	mu   sync.Mutex
	std  map[string]*sourcePackage
}{fset: token.NewFileSet(), std: map[string]*sourcePackage{}}

// sourcePackage is a standard package's type-check from source, ready
// once done is closed.
type sourcePackage struct {
	done chan struct{}
	p    *packages.Package // its Types, Syntax, TypesInfo, Errors, IllTyped
}

// sourceMode lists a load's packages, their files and imports, without
// types: sourceLoad parses and type-checks them.
const sourceMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedTypesSizes

// sourceLoad loads patterns with their tests and every package they import
// from source, in fromSource's file set, as packages.Load with loadMode
// does, the standard library's packages shared with the other loads.
func sourceLoad(cfg LoadConfig, patterns []string) ([]*packages.Package, error) {
	pc := &packages.Config{Mode: sourceMode, Dir: cfg.Dir, Env: cfg.Env, Tests: true, Fset: fromSource.fset}
	roots, err := packages.Load(pc, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(cfg.Patterns, " "), err)
	}
	done := map[*packages.Package]chan struct{}{}
	packages.Visit(roots, nil, func(p *packages.Package) { done[p] = make(chan struct{}) })
	var wg sync.WaitGroup
	for p, ch := range done {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ch)
			for _, imp := range p.Imports {
				<-done[imp]
			}
			checkFromSource(p)
		}()
	}
	wg.Wait()
	return roots, nil
}

// checkFromSource parses and type-checks p, whose imports are checked: a
// standard package from fromSource, checked there by the first load that
// needs it.
func checkFromSource(p *packages.Package) {
	p.Fset = fromSource.fset
	if p.Module != nil || p.ID != p.PkgPath || strings.HasSuffix(p.ID, ".test") {
		typeCheck(p) // a module's package, a test variant, a test main
		return
	}
	key := p.ID + "\x00" + strings.Join(p.CompiledGoFiles, "\x00")
	fromSource.mu.Lock()
	sp := fromSource.std[key]
	mine := sp == nil
	if mine {
		sp = &sourcePackage{done: make(chan struct{}), p: p}
		fromSource.std[key] = sp
	}
	fromSource.mu.Unlock()
	if mine {
		typeCheck(p)
		close(sp.done)
		return
	}
	<-sp.done
	p.Types, p.Syntax, p.TypesInfo, p.IllTyped = sp.p.Types, sp.p.Syntax, sp.p.TypesInfo, sp.p.IllTyped
	p.Errors, p.TypeErrors = sp.p.Errors, sp.p.TypeErrors
}

// typeCheck parses p's compiled files and type-checks them against its
// imports' types, as go/packages's loader does for a package from source.
func typeCheck(p *packages.Package) {
	if p.PkgPath == "unsafe" {
		p.Types, p.Syntax, p.TypesInfo = types.Unsafe, []*ast.File{}, newTypesInfo()
		return
	}
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	appendError := func(err error) {
		var se scanner.ErrorList
		var te types.Error
		var pe *os.PathError
		switch {
		case errors.As(err, &se):
			for _, e := range se {
				p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		case errors.As(err, &te):
			p.TypeErrors = append(p.TypeErrors, te)
			p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
		case errors.As(err, &pe):
			p.Errors = append(p.Errors, packages.Error{Pos: pe.Path + ":1", Msg: pe.Err.Error(), Kind: packages.ParseError})
		default:
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		}
	}
	for _, name := range p.CompiledGoFiles {
		f, err := parser.ParseFile(fromSource.fset, name, nil, parser.AllErrors|parser.ParseComments)
		if err != nil {
			appendError(err)
		}
		if f != nil {
			p.Syntax = append(p.Syntax, f)
		}
	}
	p.TypesInfo = newTypesInfo()
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if imp := p.Imports[path]; imp != nil && imp.Types != nil && imp.Types.Complete() {
				return imp.Types, nil
			}
			return nil, fmt.Errorf("no metadata for %s", path)
		}),
		Error: appendError,
		Sizes: p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	err := types.NewChecker(tc, fromSource.fset, p.Types, p.TypesInfo).Files(p.Syntax)
	if err != nil && len(p.Errors) == 0 {
		appendError(err)
	}
	p.IllTyped = len(p.Errors) > 0
	for _, imp := range p.Imports {
		p.IllTyped = p.IllTyped || imp.IllTyped
	}
}

func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
