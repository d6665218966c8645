package rewrite

import (
	"bytes"
	"context"
	"fmt"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Shadow is a built shadow module: the rewritten copies of net/http and
// the standard packages around it (shadow.go).
type Shadow struct {
	// Dir is the rewritten module's directory, which the build's
	// alternate go.mod replaces ShadowModule by.
	Dir string
	// Map maps each shadowed standard package to its shadow's path.
	Map map[string]string
}

// ShadowConfig says where and how to build the shadow.
type ShadowConfig struct {
	Dir       string   // the directory the two modules are written under (plain, rewritten)
	Env       []string // the go command's environment
	GoVersion string   // the language version of their go.mod, as "1.26"
	Morpheus  string   // morpheus's source, which the rewritten module requires
}

// BuildShadow copies the shadowed standard packages into cfg.Dir/plain,
// type-checks them there and writes them rewritten into cfg.Dir/rw; a file
// is written only when its content changed, so the go command's cache
// holds across runs. It does not compile them.
func BuildShadow(ctx context.Context, cfg ShadowConfig) (*Shadow, error) {
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	standIns := maps.Clone(shadowStandIns)
	tlsSrc, err := shadowTLSSource(ctx, cfg.Dir, cfg.Env)
	if err != nil {
		return nil, err
	}
	standIns[shadowTLS] = string(tlsSrc)
	set, err := shadowSet(ctx, cfg.Dir, cfg.Env, standIns)
	if err != nil {
		return nil, err
	}
	plain, rw := filepath.Join(cfg.Dir, "plain"), filepath.Join(cfg.Dir, "rw")
	if err := os.RemoveAll(plain); err != nil {
		return nil, err
	}
	m, err := copyShadow(set, plain, cfg.GoVersion, standIns)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	env := append(append([]string(nil), cfg.Env...), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	pc := &packages.Config{Mode: loadMode, Dir: plain, Env: env, Fset: fset, Context: ctx}
	pkgs, err := packages.Load(pc, "./...")
	if err != nil {
		return nil, fmt.Errorf("loading the shadow packages: %w", err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("the shadow packages do not type-check:\n\t%s", strings.Join(errs, "\n\t"))
	}
	globals := NewGlobals()
	for _, p := range pkgs {
		globals.AddPackage(p.PkgPath, p.Syntax, p.TypesInfo)
	}
	globals.Complete = true
	want := map[string][]byte{}
	for _, p := range pkgs {
		for i, f := range p.Syntax {
			name := p.CompiledGoFiles[i]
			src, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			rf, err := RewriteFile(p.Fset, f, src, p.TypesInfo, FileOptions{Globals: globals, RealNet: map[string]string{},
				MainNet: map[string]string{}, NetSites: map[string]bool{}, NetRoots: map[string]bool{}})
			if err != nil {
				return nil, fmt.Errorf("rewriting %s: %w", name, err)
			}
			rel, err := filepath.Rel(plain, name)
			if err != nil {
				return nil, err
			}
			if rf.Out != nil {
				src = rf.Out
			}
			want[rel] = src
		}
	}
	mod := fmt.Sprintf("module %s\n\ngo %s\n\nrequire github.com/morpheus-go/morpheus v0.0.0\n\nreplace github.com/morpheus-go/morpheus => %s\n",
		ShadowModule, cfg.GoVersion, cfg.Morpheus)
	want["go.mod"] = []byte(mod)
	if sum, err := os.ReadFile(filepath.Join(cfg.Morpheus, "go.sum")); err == nil {
		want["go.sum"] = sum
	}
	if err := syncDir(rw, want); err != nil {
		return nil, err
	}
	return &Shadow{Dir: rw, Map: m}, nil
}

// syncDir makes dir hold exactly the files of want (by slash-free relative
// path), rewriting only those whose content differs.
func syncDir(dir string, want map[string][]byte) error {
	have := map[string]bool{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if rel, err := filepath.Rel(dir, path); err == nil {
				have[rel] = true
			}
		}
		return nil
	})
	for rel := range have {
		if _, ok := want[rel]; !ok {
			if err := os.Remove(filepath.Join(dir, rel)); err != nil {
				return err
			}
		}
	}
	for rel, data := range want {
		path := filepath.Join(dir, rel)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
