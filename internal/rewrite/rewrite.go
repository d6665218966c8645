package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// FileOptions says how to write a rewritten file.
type FileOptions struct {
	// Test: the file is a _test.go file, whose tests are wrapped in rt.Test.
	Test bool
	// LineFile, if set, is the name the file's positions are reported
	// under (a //line directive): the original path of a file compiled
	// from elsewhere, such as a module-cache file.
	LineFile string
	// NeedGo121 adds a //go:build go1.21 constraint, for modules older
	// than go1.22: it keeps the semantics they were written for (loop
	// variables shared by all iterations) under the build's alternate
	// go.mod, whose go version is morpheus's, and lets rewritten code use
	// generic inference. Such a file is written out even if nothing else
	// in it changed.
	NeedGo121 bool
	// CheckTests are the package's functions that use morpheus (see
	// CheckTests): tests among them are not wrapped. If nil, the file's
	// own functions are looked at.
	CheckTests map[types.Object]bool
	// Globals records the package-level variables written in the whole
	// load, for the memory pass (locality.go); nil: those of this file.
	Globals *Globals
	// RealNet maps the functions that reach the real network, by
	// ObjectKey, to the first site they reach (realnet.go): tests among
	// them run on the real network. If nil, the file's own functions are
	// looked at.
	RealNet map[string]string
	// MainNet maps the tests that reach the real network only if their
	// package's init or TestMain listened or dialed (RealNet.Main),
	// NetSites holds the functions whose own body listens, dials or
	// serves (RealNet.Sites), NetRoots the init functions and TestMains
	// that may reach one (RealNet.NetRoots); with RealNet nil, the file's
	// own.
	MainNet  map[string]string
	NetSites map[string]bool
	NetRoots map[string]bool
	// Shadow maps the standard packages whose shadows rewritten code
	// imports (shadow.go) to the shadows' import paths; nil: none.
	Shadow map[string]string
	// Marks: a file of the module's own (not a test file) whose functions
	// mark their entry (marks.go).
	Marks bool
}

// File is a rewritten file.
type File struct {
	Path    string // the original file
	Out     []byte // the rewritten source; nil if nothing changed
	Issues  []Issue
	Changed bool
}

// RewriteFile rewrites one parsed and type-checked file whose source is
// src. Every line of the output holds what the same line of the input held
// (rewritten), so that positions in reports are the user's.
func RewriteFile(fset *token.FileSet, f *ast.File, src []byte, info *types.Info, opts FileOptions) (*File, error) {
	tf := fset.File(f.Pos())
	if tf == nil {
		return nil, fmt.Errorf("rewrite: no position information for %s", f.Name.Name)
	}
	if tf.Size() != len(src) {
		return nil, fmt.Errorf("rewrite: %s: source is %d bytes, parsed file %d", tf.Name(), len(src), tf.Size())
	}
	w := &fileRewriter{fset: fset, tf: tf, file: f, src: src, info: info, test: opts.Test, checkTests: opts.CheckTests,
		globals: opts.Globals, realNet: opts.RealNet, mainNet: opts.MainNet, netSites: opts.NetSites, netRoots: opts.NetRoots}
	if w.test && w.checkTests == nil {
		w.checkTests = CheckTests([]*ast.File{f}, info)
	}
	if w.realNet == nil {
		rn := NewRealNet()
		rn.AddPackage([]*ast.File{f}, info, fset)
		w.realNet = rn.Complete()
		w.mainNet, w.netSites, w.netRoots = rn.Main(), rn.Sites(), rn.NetRoots()
	}
	if opts.NeedGo121 && info.FileVersions != nil && info.FileVersions[f] == "" {
		// A module without a go directive (no go.mod at all): its files
		// are compiled as go1.21 under the build line, and every pass
		// must know (no range over functions, loop variables shared).
		info.FileVersions[f] = "go1.21"
	}
	var marks string
	if opts.Marks && !opts.Test {
		marks = w.marks() // first: its edits hold those of the same braces
	}
	w.walk()
	w.shadowImports(opts.Shadow)
	w.shadowPipes(opts.Shadow)
	out := &File{Path: tf.Name(), Issues: w.issues}
	plus := w.plusBuild(opts)
	if len(w.edits) == 0 && opts.NeedGo121 {
		var b strings.Builder
		header, body := w.header(opts)
		b.WriteString(header)
		newRenderer(src, plus).span(&b, body, len(src))
		out.Out, out.Changed = []byte(b.String()), true
		return out, nil
	}
	if len(w.edits) == 0 {
		return out, nil
	}
	w.edits = append(w.edits, plus...)
	// The import of rt goes on the package clause's line.
	nameEnd := w.off(f.Name.End())
	w.edits = append(w.edits, edit{start: nameEnd, end: nameEnd, emit: func(_ *renderer, b *strings.Builder) {
		fmt.Fprintf(b, "; import %s %q", rtName, rtPath)
		if w.pipeIO != "" {
			fmt.Fprintf(b, "; import %s %q", shadowPipeName, shadowPipePath)
		}
	}})
	r := newRenderer(src, w.edits)
	var b strings.Builder
	header, body := w.header(opts)
	b.WriteString(header)
	r.span(&b, body, len(src))
	if !bytes.HasSuffix(src, []byte("\n")) {
		b.WriteString("\n")
	}
	// The lines added after the source are named line 1 of the file, not
	// where the file ends: the call below is code of the package's init,
	// and at the file's end its line would move with every line an edit
	// adds or removes, changing the compiled package, and so recompiling
	// every package that imports it, where go test recompiles none.
	// (With a column, an empty name is the file's.)
	b.WriteString("//line :1:1\n")
	b.WriteString(w.keepImports())
	b.WriteString(marks)
	if w.pipeIO != "" {
		// io may have no other use left in the file.
		fmt.Fprintf(&b, "var _ %s.Reader\n", w.pipeIO)
	}
	// Rewritten code makes plain-memory and atomic accesses: the data-race
	// detector is on in any binary that holds some (rt.Rewritten).
	b.WriteString("var _ = " + rtName + ".Rewritten()\n")
	out.Out, out.Changed = []byte(b.String()), true
	return out, nil
}

// header returns what precedes the file's source, and where the source
// continues: a //line directive and a go1.21 constraint when asked. An
// existing //go:build line gets the constraint in place.
func (w *fileRewriter) header(opts FileOptions) (string, int) {
	var h strings.Builder
	start := 0
	if opts.NeedGo121 {
		if c := buildLine(w.file); c != nil {
			// Rewrite the line in place: //go:build (expr) && go1.21
			at := w.off(c.Pos())
			h.Write(w.src[:at])
			fmt.Fprintf(&h, "//go:build (%s) && go1.21", strings.TrimSpace(strings.TrimPrefix(c.Text, "//go:build")))
			start = w.off(c.End())
			if opts.LineFile != "" {
				// The directive cannot go first any more: name the file
				// from the next line on.
				line := w.fset.Position(c.End()).Line
				fmt.Fprintf(&h, "\n//line %s:%d:1", opts.LineFile, line+1)
				// The newline that ends the //go:build line is in the source.
				if start < len(w.src) && w.src[start] == '\n' {
					start++
					h.WriteString("\n")
				}
			}
			return h.String(), start
		}
		h.WriteString("//go:build go1.21\n\n")
	}
	if opts.LineFile != "" || opts.NeedGo121 {
		name := opts.LineFile
		if name == "" {
			name = w.tf.Name()
		}
		// With a column, columns stay known: errors name file:line:col.
		fmt.Fprintf(&h, "//line %s:1:1\n", name)
	}
	return h.String(), start
}

// plusBuild returns the edits that empty the file's // +build lines when
// header rewrites its //go:build line: the go command rejects +build lines
// that do not match it. (Since go1.17 the //go:build line decides.)
func (w *fileRewriter) plusBuild(opts FileOptions) []edit {
	if !opts.NeedGo121 || buildLine(w.file) == nil {
		return nil
	}
	var edits []edit
	for _, cg := range w.file.Comments {
		if cg.Pos() > w.file.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "// +build") {
				edits = append(edits, edit{start: w.off(c.Pos()), end: w.off(c.End()), emit: func(_ *renderer, b *strings.Builder) {
					b.WriteString("//")
				}})
			}
		}
	}
	return edits
}

// buildLine returns the file's //go:build comment, nil if none.
func buildLine(f *ast.File) *ast.Comment {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				return c
			}
		}
	}
	return nil
}

// keepImports returns blank declarations that keep using the imports of
// packages whose uses may all have been redirected to rt.
func (w *fileRewriter) keepImports() string {
	var b strings.Builder
	for _, imp := range w.file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		fn, ok := keepUsed[path]
		if !ok {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if name == "v2" { // math/rand/v2
			name = "rand"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." {
			continue
		}
		fmt.Fprintf(&b, "var _ = %s.%s\n", name, fn)
	}
	return b.String()
}
