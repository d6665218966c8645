package rewrite

import (
	"go/ast"
	"go/token"
	"strconv"
)

// io.Pipe inside the shadow packages: its ends block on package io's own
// mutex and channels, which no shadow can make controlled without
// shadowing io itself (whose types every program shares). The shadow
// packages use it only inside (httputil's DumpRequestOut, the file
// transport, ranges of ServeContent, fcgi's request bodies), so their
// uses of io.Pipe, io.PipeReader and io.PipeWriter become a stand-in's,
// shadowPipePath, whose pipe is made of a mutex and channels that the
// rewrite controls. Its errors are io's (io.ErrClosedPipe, io.EOF). With
// the shadow on, rewritten code's uses become the stand-in's too
// (shadowPipes): a test that pipes (etcd's snapshots) stays under control.

// shadowPipePath is the stand-in's import path, and shadowPipeName the
// name a file imports it by.
const (
	shadowPipePath = ShadowModule + "/iopipe"
	shadowPipeName = "__iopipe"
)

// pipeUses returns the spans of the package names of the file's uses of
// io.Pipe, io.PipeReader and io.PipeWriter, and the name it imports io by.
func pipeUses(fset *token.FileSet, f *ast.File) (spans [][2]int, name string) {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "io" {
			name = "io"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" || name == "_" || name == "." {
		return nil, ""
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if ok && x.Name == name && (sel.Sel.Name == "Pipe" || sel.Sel.Name == "PipeReader" || sel.Sel.Name == "PipeWriter") {
			spans = append(spans, [2]int{fset.Position(x.Pos()).Offset, fset.Position(x.End()).Offset})
		}
		return true
	})
	return spans, name
}

// shadowPipe is the stand-in for io's pipe.
const shadowPipe = `// Package iopipe stands in for io.Pipe in morpheus's shadow packages: a
// synchronous in-memory pipe whose ends block on a mutex and channels that
// the rewrite controls.
package iopipe

import (
	"io"
	"sync"
)

type pipe struct {
	writing sync.Mutex  // one Write at a time
	data    chan []byte // what a Write offers
	taken   chan int    // how much of it a Read took
	closing sync.Once
	closed  chan struct{}

	mu         sync.Mutex
	rerr, werr error // why each end was closed
}

// Pipe creates a synchronous in-memory pipe, as io.Pipe.
func Pipe() (*PipeReader, *PipeWriter) {
	p := &pipe{data: make(chan []byte), taken: make(chan int), closed: make(chan struct{})}
	return &PipeReader{p}, &PipeWriter{p}
}

func (p *pipe) read(b []byte) (int, error) {
	select {
	case <-p.closed:
		return 0, p.readErr()
	default:
	}
	select {
	case w := <-p.data:
		n := copy(b, w)
		p.taken <- n
		return n, nil
	case <-p.closed:
		return 0, p.readErr()
	}
}

func (p *pipe) write(b []byte) (n int, err error) {
	select {
	case <-p.closed:
		return 0, p.writeErr()
	default:
	}
	p.writing.Lock()
	defer p.writing.Unlock()
	for first := true; first || len(b) > 0; first = false {
		select {
		case p.data <- b:
			k := <-p.taken
			b, n = b[k:], n+k
		case <-p.closed:
			return n, p.writeErr()
		}
	}
	return n, nil
}

func (p *pipe) close(rerr, werr error) {
	p.mu.Lock()
	if p.rerr == nil && rerr != nil {
		p.rerr = rerr
	}
	if p.werr == nil && werr != nil {
		p.werr = werr
	}
	p.mu.Unlock()
	p.closing.Do(func() { close(p.closed) })
}

// readErr is what a Read of a closed pipe returns: the writer's error when
// only the writer closed it.
func (p *pipe) readErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rerr == nil && p.werr != nil {
		return p.werr
	}
	return io.ErrClosedPipe
}

// writeErr is what a Write to a closed pipe returns: the reader's error
// when only the reader closed it.
func (p *pipe) writeErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.werr == nil && p.rerr != nil {
		return p.rerr
	}
	return io.ErrClosedPipe
}

// A PipeReader is the read half of a pipe.
type PipeReader struct{ p *pipe }

// Read reads what a Write offers, as io.PipeReader's.
func (r *PipeReader) Read(b []byte) (int, error) { return r.p.read(b) }

// Close closes the reader: writes fail with io.ErrClosedPipe.
func (r *PipeReader) Close() error { return r.CloseWithError(nil) }

// CloseWithError closes the reader: writes fail with err (or
// io.ErrClosedPipe).
func (r *PipeReader) CloseWithError(err error) error {
	if err == nil {
		err = io.ErrClosedPipe
	}
	r.p.close(err, nil)
	return nil
}

// A PipeWriter is the write half of a pipe.
type PipeWriter struct{ p *pipe }

// Write writes b, blocking until reads took all of it, as io.PipeWriter's.
func (w *PipeWriter) Write(b []byte) (int, error) { return w.p.write(b) }

// Close closes the writer: reads then return io.EOF.
func (w *PipeWriter) Close() error { return w.CloseWithError(nil) }

// CloseWithError closes the writer: reads then return err (or io.EOF).
func (w *PipeWriter) CloseWithError(err error) error {
	if err == nil {
		err = io.EOF
	}
	w.p.close(nil, err)
	return nil
}
`
