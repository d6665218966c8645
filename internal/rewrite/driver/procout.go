package driver

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// A test process's output can be far larger than anything the summary
// shows (a real suite's tests log every step of a cluster: gigabytes over
// a package), so the driver does not hold it: it goes to a file as it
// comes (procOutput), and what the collector asks of it is indexed as its
// lines pass (outputIndex): the tests that started and got testing's
// verdict, the byte ranges each top-level test's lines span, and the
// first fatal panic. A failing test's output is read back from those
// ranges: streamed into its log file whole, and into the summary (a
// failure outside control, a process that failed outside control) cut to
// its head and tail (keptOutput).

// keptHead and keptTail bound the output the summary holds of one test or
// process: its first keptHead bytes and its last keptTail.
const (
	keptHead = 64 << 10
	keptTail = 1 << 20
)

// lineKeep is how much of one line the index looks at: framing lines,
// panics and morpheus's own lines are short; the rest of a longer line
// only passes to the file.
const lineKeep = 64 << 10

// crashLines bounds the lines kept after a fatal panic's, for its location.
const crashLines = 4096

// span is a byte range [from, to) of a process's output.
type span struct{ from, to int64 }

// outputIndex indexes a test process's framed output (output.go) as it is
// written, line by line, holding a bounded part of any one line.
type outputIndex struct {
	n         int64  // bytes seen
	line      []byte // the current line, up to lineKeep bytes
	lineStart int64
	owner     string // the top-level test the current lines belong to
	from      int64  // where owner's current span began
	spans     map[string][]span
	started   map[string]bool          // "=== RUN   TestX"
	verdict   map[string]bool          // "--- PASS/SKIP/FAIL: TestX ("
	failed    map[string]bool          // "--- FAIL: TestX ("
	took      map[string]time.Duration // "--- PASS: TestX (1.23s)": the time testing gave it (procphases.go)
	// The first fatal panic: the test framed before it, its line and the
	// lines after it up to the end of its goroutine's stack.
	crashTest  string
	crash      string
	crashAfter []string
	crashDone  bool
}

func newOutputIndex() *outputIndex {
	return &outputIndex{spans: map[string][]span{}, started: map[string]bool{}, verdict: map[string]bool{}, failed: map[string]bool{},
		took: map[string]time.Duration{}}
}

// write indexes the next bytes of the output.
func (ix *outputIndex) write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i+1]
		}
		if room := lineKeep - len(ix.line); room > 0 {
			ix.line = append(ix.line, chunk[:min(room, len(chunk))]...)
		}
		ix.n += int64(len(chunk))
		p = p[len(chunk):]
		if i >= 0 {
			ix.endLine()
		}
	}
}

// endLine indexes the line that just ended (its kept part).
func (ix *outputIndex) endLine() {
	line := strings.TrimSuffix(string(ix.line), "\n")
	start := ix.lineStart
	ix.line, ix.lineStart = ix.line[:0], ix.n
	if ix.crash != "" && !ix.crashDone {
		// panicLocation reads up to the end of the panicking stack.
		ix.crashAfter = append(ix.crashAfter, line)
		ix.crashDone = line == "" && len(ix.crashAfter) > 1 || len(ix.crashAfter) >= crashLines
	}
	rest, framed := strings.CutPrefix(line, frameByte)
	if !framed {
		if ix.crash == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")) {
			ix.crash = strings.TrimSpace(line)
		}
		return
	}
	name, ok := framedTest(rest)
	if !ok {
		return
	}
	top, _, _ := strings.Cut(name, "/")
	if ix.crash == "" {
		ix.crashTest = top
	}
	if top != ix.owner {
		ix.closeSpan(start)
		ix.owner, ix.from = top, start
	}
	if name != top {
		return // a subtest's: the collector asks of top-level tests only
	}
	r := strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(r, "=== RUN"):
		ix.started[name] = true
	case strings.HasPrefix(r, "--- FAIL:"):
		ix.failed[name] = true
		ix.verdict[name] = true
	case strings.HasPrefix(r, "--- PASS:"), strings.HasPrefix(r, "--- SKIP:"):
		ix.verdict[name] = true
	}
	if strings.HasPrefix(r, "--- ") {
		if d, ok := took(r); ok {
			ix.took[name] += d
		}
	}
}

// closeSpan ends the current owner's span at offset at.
func (ix *outputIndex) closeSpan(at int64) {
	if ix.owner == "" || at <= ix.from {
		return
	}
	s := ix.spans[ix.owner]
	if k := len(s) - 1; k >= 0 && s[k].to == ix.from {
		s[k].to = at
	} else {
		s = append(s, span{ix.from, at})
	}
	ix.spans[ix.owner] = s
}

// testSpans returns the ranges of the output that test (a top-level test)
// and its subtests printed, their framing lines included, up to what was
// written so far.
func (ix *outputIndex) testSpans(test string) []span {
	out := append([]span(nil), ix.spans[test]...)
	if ix.owner == test && ix.n > ix.from {
		if k := len(out) - 1; k >= 0 && out[k].to == ix.from {
			out[k].to = ix.n
		} else {
			out = append(out, span{ix.from, ix.n})
		}
	}
	return out
}

// findCrashIn returns the first fatal panic indexed.
func (ix *outputIndex) findCrashIn() (crash, bool) {
	if ix.crash == "" {
		return crash{}, false
	}
	return crash{test: ix.crashTest, line: ix.crash, location: panicLocation(ix.crashAfter)}, true
}

// procOutput is a test process's output: in a file, indexed as it comes.
// It is the process's stdout and stderr.
type procOutput struct {
	mu  sync.Mutex
	f   *os.File
	err error // the first error writing the file
	ix  *outputIndex
}

// newProcOutput creates the file at path for a process's output.
func newProcOutput(path string) (*procOutput, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	return &procOutput{f: f, ix: newOutputIndex()}, nil
}

func (o *procOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		_, o.err = o.f.Write(p)
	}
	o.ix.write(p)
	return len(p), nil // the process's output is never refused: it would fail
}

// Close closes the file; the process has ended.
func (o *procOutput) Close() error { return o.f.Close() }

// started, ended and failedTest report whether the output shows test (a
// top-level test) started, got testing's verdict, failed.
func (o *procOutput) started(test string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ix.started[test]
}

func (o *procOutput) ended(test string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ix.verdict[test]
}

func (o *procOutput) failedTest(test string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ix.failed[test]
}

func (o *procOutput) findCrash() (crash, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ix.findCrashIn()
}

// copyTest writes what test and its subtests printed to w, as testOutput
// gives it (framing lines included, without the framing bytes), and
// returns how many bytes it wrote.
func (o *procOutput) copyTest(w io.Writer, test string) (int64, error) {
	o.mu.Lock()
	spans, err := o.ix.testSpans(test), o.err
	o.mu.Unlock()
	if err != nil {
		return 0, fmt.Errorf("the output of the test process: %v", err)
	}
	rs := make([]io.Reader, len(spans))
	for i, s := range spans {
		rs[i] = io.NewSectionReader(o.f, s.from, s.to-s.from)
	}
	return copyUnframed(w, io.MultiReader(rs...), true)
}

// testOutput returns test's output (copyTest), its head and tail when it
// is longer than the summary keeps.
func (o *procOutput) testOutput(test string) string {
	var k keptWriter
	if _, err := o.copyTest(&k, test); err != nil {
		return err.Error()
	}
	return k.String()
}

// plain returns the whole output without its framing bytes (plainOutput),
// its head and tail when longer than the summary keeps.
func (o *procOutput) plain() string {
	o.mu.Lock()
	n, err := o.ix.n, o.err
	o.mu.Unlock()
	if err != nil {
		return fmt.Sprintf("the output of the test process: %v", err)
	}
	var k keptWriter
	if _, err := copyUnframed(&k, io.NewSectionReader(o.f, 0, n), false); err != nil {
		return err.Error()
	}
	return k.String()
}

// realWhy is what test's output says made it run outside control (realWhy).
func (o *procOutput) realWhy(test string) string {
	pr, pw := io.Pipe()
	go func() { _, err := o.copyTest(pw, test); pw.CloseWithError(err) }()
	defer pr.Close()
	br := bufio.NewReaderSize(pr, lineKeep)
	for {
		line, err := br.ReadSlice('\n')
		if why := realWhy(string(line)); why != "" {
			return why
		}
		if err != nil && err != bufio.ErrBufferFull {
			return ""
		}
	}
}

// copyUnframed copies r, a framed output from a line's start, to w
// without the framing bytes: those that begin a line (lineStarts), as
// testOutput drops them, or all of them, as plainOutput does.
func copyUnframed(w io.Writer, r io.Reader, lineStarts bool) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	bol := true // at the beginning of a line
	for {
		m, err := r.Read(buf)
		chunk := buf[:m]
		out := chunk[:0]
		for _, c := range chunk {
			if c == frameByte[0] && (bol || !lineStarts) {
				bol = false
				continue
			}
			bol = c == '\n'
			out = append(out, c)
		}
		if len(out) > 0 {
			k, werr := w.Write(out)
			n += int64(k)
			if werr != nil {
				return n, werr
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// keptWriter keeps the first keptHead bytes written to it and the last
// keptTail, and counts those between.
type keptWriter struct {
	head    []byte
	tail    []byte // a ring of keptTail bytes once full
	at      int    // the ring's oldest byte
	skipped int64
}

func (k *keptWriter) Write(p []byte) (int, error) {
	n := len(p)
	if room := keptHead - len(k.head); room > 0 {
		c := min(room, len(p))
		k.head = append(k.head, p[:c]...)
		p = p[c:]
	}
	for len(p) > 0 {
		if len(k.tail) < keptTail {
			c := min(keptTail-len(k.tail), len(p))
			k.tail = append(k.tail, p[:c]...)
			p = p[c:]
			continue
		}
		c := min(keptTail-k.at, len(p))
		k.skipped += int64(c)
		copy(k.tail[k.at:], p[:c])
		k.at = (k.at + c) % keptTail
		p = p[c:]
	}
	return n, nil
}

// String is what was written, or its head and tail with a line that says
// how much is left out between them.
func (k *keptWriter) String() string {
	var b strings.Builder
	b.Write(k.head)
	if k.skipped > 0 {
		fmt.Fprintf(&b, "\n[morpheus: %d bytes of this output left out]\n", k.skipped)
	}
	b.Write(k.tail[k.at:])
	b.Write(k.tail[:k.at])
	return b.String()
}
