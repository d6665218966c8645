package rewrite

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The shadow standard library: net/http and the standard packages that
// import it cannot be rewritten where they are (a standard package cannot
// import rt), so rewritten code imports copies of them instead, shadow
// packages under the module path ShadowModule whose files are GOROOT's,
// copied and rewritten like the user's (go statements become tasks,
// channels, locks and timers rt's, listens and dials the in-memory
// network). A copy imports the shadows of the internal and vendored
// packages it needs (a package outside the standard library may import
// neither), and the standard library's other packages as they are
// (crypto/tls, net/textproto, net/http/httptrace: their types cross into
// the program unchanged). internal/godebug, which reaches into the runtime
// through linknames, is replaced by a stand-in (shadowGodebug).

// ShadowModule is the module path of the shadow packages.
const ShadowModule = "morpheus.shadow"

// shadowTop is the standard package whose importers are shadowed with it.
const shadowTop = "net/http"

// shadowStandIns are the packages replaced rather than copied, with the
// stand-in's source; crypto/tls's is generated (shadowtls.go).
var shadowStandIns = map[string]string{"internal/godebug": shadowGodebug}

// ShadowPath returns the import path of a standard package's shadow.
func ShadowPath(std string) string {
	if rest, ok := strings.CutPrefix(std, "vendor/"); ok {
		return ShadowModule + "/stdvendor/" + rest
	}
	return ShadowModule + "/" + std
}

// stdPackage is what go list says of a standard package.
type stdPackage struct {
	path, dir      string
	imports, deps  []string
	goFiles        []string
	other          bool // cgo or assembly files: not copied
	internalOrVend bool
}

// ShadowSet computes which standard packages are shadowed: net/http, every
// importable standard package whose dependencies include it, the internal
// and vendored packages these import (transitively), a package replaced by
// a stand-in without its imports, and crypto/tls, whose stand-in is
// given. It returns them sorted with what go list says of each.
func shadowSet(ctx context.Context, dir string, env []string, standIns map[string]string) ([]stdPackage, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f",
		"{{.ImportPath}}|{{.Dir}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}|{{join .GoFiles \" \"}}|{{len .CgoFiles}}{{len .SFiles}}",
		"std")
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list std: %v: %s", err, stderr.Bytes())
	}
	all := map[string]*stdPackage{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "|")
		if len(f) != 6 {
			continue
		}
		p := &stdPackage{path: f[0], dir: f[1], imports: strings.Fields(f[2]), deps: strings.Fields(f[3]),
			goFiles: strings.Fields(f[4]), other: f[5] != "00", internalOrVend: notImportable(f[0])}
		all[p.path] = p
	}
	if all[shadowTop] == nil {
		return nil, fmt.Errorf("go list std: no %s", shadowTop)
	}
	in := map[string]bool{}
	var queue []string
	for path, p := range all {
		if path == shadowTop || (!p.internalOrVend && !strings.HasPrefix(path, "cmd/") && slices.Contains(p.deps, shadowTop)) {
			queue = append(queue, path)
		}
	}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if in[path] {
			continue
		}
		p := all[path]
		if p == nil {
			return nil, fmt.Errorf("go list std: no %s", path)
		}
		in[path] = true
		if _, ok := standIns[path]; ok {
			continue
		}
		for _, imp := range p.imports {
			if notImportable(imp) && !in[imp] {
				queue = append(queue, imp)
			}
		}
	}
	if _, ok := standIns[shadowTLS]; ok && all[shadowTLS] != nil {
		in[shadowTLS] = true
	}
	var res []stdPackage
	for _, path := range slices.Sorted(maps.Keys(in)) {
		res = append(res, *all[path])
	}
	return res, nil
}

// notImportable reports whether a standard package may be imported only
// by the standard library: an internal or vendored one.
func notImportable(path string) bool {
	return strings.HasPrefix(path, "vendor/") || path == "internal" || strings.HasPrefix(path, "internal/") ||
		strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}

// copyShadow writes the plain (not yet rewritten) shadow module into dir:
// a go.mod, and each package's files with its imports of shadowed
// packages redirected and its //go:linkname directives, and the
// declarations without a body they name, left out (a shadow's symbols are
// its own), a stand-in's package its source of standIns. It returns the
// map from standard path to shadow path.
func copyShadow(set []stdPackage, dir, goVersion string, standIns map[string]string) (map[string]string, error) {
	m := map[string]string{}
	for _, p := range set {
		if _, ok := standIns[p.path]; !ok && p.other {
			return nil, fmt.Errorf("%s has cgo or assembly files: it cannot be shadowed", p.path)
		}
		m[p.path] = ShadowPath(p.path)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	mod := fmt.Sprintf("module %s\n\ngo %s\n", ShadowModule, goVersion)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return nil, err
	}
	pipeDir := filepath.Join(dir, strings.TrimPrefix(shadowPipePath, ShadowModule+"/"))
	if err := os.MkdirAll(pipeDir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(pipeDir, "pipe.go"), []byte(shadowPipe), 0o644); err != nil {
		return nil, err
	}
	for _, p := range set {
		pdir := filepath.Join(dir, strings.TrimPrefix(m[p.path], ShadowModule+"/"))
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			return nil, err
		}
		if standIn, ok := standIns[p.path]; ok {
			if err := os.WriteFile(filepath.Join(pdir, "standin.go"), []byte(standIn), 0o644); err != nil {
				return nil, err
			}
			continue
		}
		for _, name := range p.goFiles {
			src, err := os.ReadFile(filepath.Join(p.dir, name))
			if err != nil {
				return nil, err
			}
			out, err := shadowFile(name, src, m)
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(pdir, name), out, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// shadowFile returns a standard file as its shadow: imports of shadowed
// packages redirected, //go:linkname directives and the declarations
// without a body blanked (every byte but newlines a space: lines stay).
func shadowFile(name string, src []byte, m map[string]string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(src)
	blank := func(from, to token.Pos) {
		for i := fset.Position(from).Offset; i < fset.Position(to).Offset; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	type repl struct {
		at, end int
		text    string
	}
	var repls []repl
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		s, ok := m[path]
		if !ok {
			// A vendored package's files import their module's path.
			s, ok = m["vendor/"+path]
		}
		if ok {
			text := strconv.Quote(s)
			if imp.Name == nil {
				// The shadow's last element may differ (a vendored
				// package's does not): name the package as before.
				text = shadowImportName(path) + " " + strconv.Quote(s)
			}
			repls = append(repls, repl{fset.Position(imp.Path.Pos()).Offset, fset.Position(imp.Path.End()).Offset, text})
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:linkname") {
				blank(c.Pos(), c.End())
			}
		}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
			blank(fd.Pos(), fd.End())
		}
	}
	pipes, ioName := pipeUses(fset, f)
	for _, sp := range pipes {
		repls = append(repls, repl{sp[0], sp[1], shadowPipeName})
	}
	if len(pipes) > 0 {
		// On the package clause's line, as the rewrite's import of rt.
		at := fset.Position(f.Name.End()).Offset
		repls = append(repls, repl{at, at, fmt.Sprintf("; import %s %q", shadowPipeName, shadowPipePath)})
	}
	slices.SortFunc(repls, func(a, b repl) int { return a.at - b.at })
	var b bytes.Buffer
	last := 0
	for _, r := range repls {
		b.Write(out[last:r.at])
		b.WriteString(r.text)
		last = r.end
	}
	b.Write(out[last:])
	if len(pipes) > 0 {
		// io may have no other use left in the file.
		fmt.Fprintf(&b, "\nvar _ %s.Reader\n", ioName)
	}
	return b.Bytes(), nil
}

// shadowImportName is the name a file that imports std without naming it
// refers to it by: the package's own name, which for the standard
// library is the path's last element (but for a major-version suffix,
// which it has none of).
func shadowImportName(std string) string {
	return std[strings.LastIndex(std, "/")+1:]
}

// shadowGodebug stands in for internal/godebug, which registers its
// settings with the runtime through linknames: a setting's value is the
// one GODEBUG names in the environment when the setting is first read, ""
// otherwise (the default; a go.mod's godebug lines are not seen).
const shadowGodebug = `// Package godebug stands in for the standard library's internal/godebug in
// morpheus's shadow packages.
package godebug

import (
	"os"
	"strings"
	"sync"
)

// A Setting is a single setting in the GODEBUG environment variable.
type Setting struct {
	name  string
	once  sync.Once
	value string
}

// New returns a new Setting for the $GODEBUG setting with the given name.
func New(name string) *Setting { return &Setting{name: name} }

// Name returns the name of the setting.
func (s *Setting) Name() string {
	if s.name != "" && s.name[0] == '#' {
		return s.name[1:]
	}
	return s.name
}

// Undocumented reports whether this is an undocumented setting.
func (s *Setting) Undocumented() bool { return s.name != "" && s.name[0] == '#' }

// String returns a printable form for the setting: name=value.
func (s *Setting) String() string { return s.Name() + "=" + s.Value() }

// IncNonDefault counts nothing here.
func (s *Setting) IncNonDefault() {}

// Value returns the current value for the GODEBUG setting s.
func (s *Setting) Value() string {
	s.once.Do(func() {
		for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
			if k, v, ok := strings.Cut(kv, "="); ok && k == s.Name() {
				s.value = v
			}
		}
	})
	return s.value
}
`
