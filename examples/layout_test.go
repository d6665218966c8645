// Package examples_test keeps the examples copyable: every example builds
// from morpheus's public packages alone, and no package of the module
// imports an example, so that changing one breaks nothing else.
//
// The subject systems of the demo and the benchmarks (internal/systems) are
// held to the first rule too: a reader can copy them as well.
package examples_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/morpheus-go/morpheus"

// pkg is what go list -json says of a package.
type pkg struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
}

// packages lists the module's packages with their imports.
func packages(t *testing.T) []pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go list needs the go command:", err)
	}
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,TestImports,XTestImports", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func under(path, dir string) bool {
	return path == module+"/"+dir || strings.HasPrefix(path, module+"/"+dir+"/")
}

// internal reports whether path is an internal package of the module.
func internal(path string) bool {
	rest, ok := strings.CutPrefix(path, module+"/")
	return ok && (strings.HasPrefix(rest, "internal/") || strings.Contains(rest, "/internal/") ||
		rest == "internal" || strings.HasSuffix(rest, "/internal"))
}

func TestLayout(t *testing.T) {
	pkgs := packages(t)
	examples := 0
	for _, p := range pkgs {
		copyable := under(p.ImportPath, "examples") || under(p.ImportPath, "internal/systems")
		if under(p.ImportPath, "examples") {
			examples++
		}
		if copyable {
			// The package's own code; its tests may use the module's test
			// helpers (fuzzdemo's drive the ordering server).
			for _, imp := range p.Imports {
				if internal(imp) {
					t.Errorf("%s imports the internal package %s: a user who copies it cannot build it", p.ImportPath, imp)
				}
			}
		}
		for _, imports := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
			for _, imp := range imports {
				if under(imp, "examples") && imp != p.ImportPath {
					t.Errorf("%s imports the example %s: examples are for copying, not importing", p.ImportPath, imp)
				}
			}
		}
	}
	if examples < 2 {
		t.Errorf("go list found %d example packages of %d; want quickstart and fuzzdemo at least", examples, len(pkgs))
	}
}
