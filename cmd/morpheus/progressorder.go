package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sync"
)

// Plain progress lines (off a terminal) never mix packages: the lines of
// one package print as they come, those of the others wait, and when the
// package ends its next one in the order they started prints what it
// kept, then goes on live. go test's own output stays after a package's
// progress lines: the output's writer polls the progress file before it
// writes, and a package's result line ("ok  \tPKG", "FAIL\tPKG") ends the
// package. Under the rewriting driver packages run one after the other,
// and a package ends when all its Checks are done (doneSwitches).
type packageOrder struct {
	active       string // the package whose lines print live; "" none yet
	started      bool
	order        []string            // packages waiting, in the order they started
	held         map[string][]string // their lines
	ended        map[string]bool
	doneSwitches bool // a package ends when its Checks are done
}

// add prints a progress line of pkg, or keeps it until pkg's turn.
func (o *packageOrder) add(w io.Writer, pkg, line string) {
	if !o.started || o.active == pkg && !o.ended[pkg] {
		o.started, o.active = true, pkg
		fmt.Fprintln(w, line)
		return
	}
	if o.held == nil {
		o.held = map[string][]string{}
	}
	if _, ok := o.held[pkg]; !ok {
		o.order = append(o.order, pkg)
	}
	o.held[pkg] = append(o.held[pkg], line)
	if o.ended[o.active] {
		o.next(w)
	}
}

// idle ends pkg when all its runs are done (doneSwitches).
func (o *packageOrder) idle(w io.Writer, pkg string, done bool) {
	if done {
		o.end(w, pkg)
	}
}

// end ends pkg: if it is the active one, the next package's turn comes;
// otherwise its lines wait for its turn, which then passes at once.
func (o *packageOrder) end(w io.Writer, pkg string) {
	if o.ended == nil {
		o.ended = map[string]bool{}
	}
	o.ended[pkg] = true
	if pkg == o.active {
		o.flush(w, pkg)
		o.next(w)
	}
}

// next gives the turn to the first waiting package.
func (o *packageOrder) next(w io.Writer) {
	for len(o.order) > 0 {
		pkg := o.order[0]
		o.order = o.order[1:]
		if _, ok := o.held[pkg]; !ok {
			continue // ended and flushed already
		}
		o.active = pkg
		o.flush(w, pkg)
		if !o.ended[pkg] {
			return
		}
	}
}

// flush prints the lines kept for pkg.
func (o *packageOrder) flush(w io.Writer, pkg string) {
	for _, l := range o.held[pkg] {
		fmt.Fprintln(w, l)
	}
	delete(o.held, pkg)
}

// flushAll prints every line still kept, in the order the packages started.
func (o *packageOrder) flushAll(w io.Writer) {
	for _, pkg := range o.order {
		o.flush(w, pkg)
	}
	o.order = nil
}

// resultLine matches go test's line that ends a package.
var resultLine = regexp.MustCompile(`^(?:ok|FAIL|\?)\s+(\S+)\s`)

// orderedOutput writes go test's output (off a terminal) after the
// progress lines that precede it, and ends a package at its result line.
type orderedOutput struct {
	mu   sync.Mutex
	w    io.Writer
	view *progressView
}

func (o *orderedOutput) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.view.poll()
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if m := resultLine.FindSubmatch(line); m != nil {
			o.view.endPackage(string(m[1]))
		}
	}
	return o.w.Write(b)
}

// endPackage ends pkg's turn in the plain lines.
func (v *progressView) endPackage(pkg string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.pkgs.end(v.w, pkg)
}

// finish prints the plain lines still kept: the run is over.
func (v *progressView) finish() {
	v.poll()
	v.mu.Lock()
	defer v.mu.Unlock()
	v.pkgs.flushAll(v.w)
}
