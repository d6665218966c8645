package rewrite

import (
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// shadowImports redirects the file's imports of shadowed standard packages
// to their shadows (shadow.go), under the name the file used: every
// rewritten package then sees the shadow's types, never the standard
// library's.
func (w *fileRewriter) shadowImports(shadow map[string]string) {
	for _, imp := range w.file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		s, ok := shadow[path]
		if !ok {
			continue
		}
		text := strconv.Quote(s)
		if imp.Name == nil {
			text = shadowImportName(path) + " " + text
		}
		w.edits = append(w.edits, edit{start: w.off(imp.Path.Pos()), end: w.off(imp.Path.End()),
			emit: func(_ *renderer, b *strings.Builder) { b.WriteString(text) }})
	}
}

// shadowPipes makes the file's uses of io.Pipe, io.PipeReader and
// io.PipeWriter the stand-in's (shadowpipe.go) when the shadow is on
// (net/http in it): its ends block on a mutex and channels the rewrite
// controls, where io's block on the standard library's, so a test that
// pipes runs under control. A pipe's end handed to code that is not
// rewritten as the concrete *io.PipeReader or *io.PipeWriter would not
// build; io.Reader and io.Writer (every standard use) are fine.
func (w *fileRewriter) shadowPipes(shadow map[string]string) {
	if _, ok := shadow[shadowTop]; !ok {
		return
	}
	spans, name := pipeUses(w.fset, w.file)
	if len(spans) == 0 {
		return
	}
	w.pipeIO = name
	for _, sp := range spans {
		w.edits = append(w.edits, edit{start: sp[0], end: sp[1],
			emit: func(_ *renderer, b *strings.Builder) { b.WriteString(shadowPipeName) }})
	}
}

// shadowConflict reports whether a package of a module that is not
// rewritten (one the load excludes, or morpheus's own) imports a shadowed
// package: it would exchange the standard library's net/http types with
// rewritten code, which sees the shadow's, and the build would fail; the
// load then goes without the shadow. A package of another module that the
// first load holds as export data only (no syntax) and the second from its
// syntax is rewritten: only its rewritten copy is built.
func shadowConflict(all []*packages.Package, exclude []string, shadow map[string]string) bool {
	rewritten := map[string]bool{}
	packages.Visit(all, nil, func(p *packages.Package) {
		if rewritable(p, exclude) {
			rewritten[p.PkgPath] = true
		}
	})
	conflict := false
	packages.Visit(all, nil, func(p *packages.Package) {
		if p.Module == nil || strings.HasSuffix(p.PkgPath, ".test") || rewritten[p.PkgPath] {
			return
		}
		for path := range p.Imports {
			if _, ok := shadow[path]; ok {
				conflict = true
			}
		}
	})
	return conflict
}
