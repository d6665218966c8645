package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// The result file of morpheus test (-results FILE), written as the run
// goes, a JSON line each, so that a run killed half-way keeps what
// finished:
//
//	{"kind":"run","version":1,"shard":"1/3","run":{...}}   first: the run's settings and its shard
//	{"kind":"corpus","corpus":{...}}     a failing test's saved trace, before its test line
//	{"kind":"test","test":{...}}         a test, as -json prints it, once all its processes reported it
//	{"kind":"package","package":{...}}   a package once it ended: its build, wall time and error
//	{"kind":"check","check":{...}}       a morpheus.Check's record (internal/results)
//	{"kind":"end"}                       last: the run finished
//
// morpheus merge reads the files of a run's shards (testmerge.go).

// resultsVersion is the version of the format; readResults rejects others.
const resultsVersion = 1

type runLine struct {
	Kind    string          `json:"kind"`
	Version int             `json:"version,omitempty"`
	Shard   string          `json:"shard,omitempty"`
	Run     *runSettings    `json:"run,omitempty"`
	Test    *testRecord     `json:"test,omitempty"`
	Corpus  *corpusLine     `json:"corpus,omitempty"`
	Package *packageLine    `json:"package,omitempty"`
	Check   *results.Record `json:"check,omitempty"`
}

// runSettings are what makes two runs' schedules the same: shards merge
// only if they agree on all of them.
type runSettings struct {
	Patterns    []string `json:"patterns"`
	Run         string   `json:"run,omitempty"`
	Exclude     []string `json:"exclude,omitempty"`
	Schedules   int      `json:"schedules"` // 0: the default budget, -1 unlimited
	Duration    string   `json:"duration,omitempty"`
	Budget      string   `json:"budget,omitempty"` // MORPHEUS_RT_BUDGET
	Seed        uint64   `json:"seed,omitempty"`   // 0: each test's from its name
	Strategy    string   `json:"strategy,omitempty"`
	MaxSteps    int      `json:"maxsteps,omitempty"`
	EarlyTimers int      `json:"earlytimers,omitempty"`
	Epoch       string   `json:"epoch,omitempty"`
	AllowLeaks  bool     `json:"allowleaks,omitempty"`
	AllowRaces  bool     `json:"allowraces,omitempty"`
	Race        bool     `json:"race,omitempty"`
	Corpus      bool     `json:"corpus,omitempty"`
	Spread      int      `json:"spread,omitempty"` // -shard-spread, when above 1: every shard must have the same
}

func settingsOf(cfg driver.Config) *runSettings {
	s := &runSettings{Patterns: cfg.Patterns, Run: cfg.Run, Exclude: cfg.Exclude, Schedules: cfg.Schedules,
		Seed: cfg.Seed, Strategy: cfg.Strategy, MaxSteps: cfg.MaxSteps, EarlyTimers: cfg.EarlyTimers, Epoch: cfg.Epoch,
		AllowLeaks: cfg.AllowLeaks, AllowRaces: cfg.AllowRaces, Race: cfg.Race, Corpus: cfg.Corpus,
		Budget: os.Getenv("MORPHEUS_RT_BUDGET")}
	if cfg.Duration > 0 {
		s.Duration = cfg.Duration.String()
	}
	if cfg.ShardSpread > 1 {
		s.Spread = cfg.ShardSpread
	}
	return s
}

// corpusLine is a failing test's trace as its shard saved it in the
// package's corpus: morpheus merge saves the one its summary names.
type corpusLine struct {
	Package string `json:"package"`
	Test    string `json:"test"`
	Dir     string `json:"dir"`  // the package's directory, relative to its module's root, slashed
	Path    string `json:"path"` // the trace, relative to Dir, slashed: testdata/morpheus/<Test>/<hash>
	Trace   string `json:"trace"`
	Log     string `json:"log,omitempty"` // the test's output kept beside it (TRACE.log)
}

// packageLine is a package's outcome, once it ended.
type packageLine struct {
	Path      string          `json:"path"`
	Issues    []rewrite.Issue `json:"issues,omitempty"`
	BuildNS   int64           `json:"build_ns"`
	ElapsedNS int64           `json:"elapsed_ns"`
	Error     string          `json:"error,omitempty"`
	Output    string          `json:"output,omitempty"`
}

// resultWriter appends the lines of a result file as the run goes.
type resultWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (rw *resultWriter) line(l runLine) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.err != nil {
		return
	}
	b, err := json.Marshal(l)
	if err == nil {
		_, err = rw.w.Write(append(b, '\n'))
	}
	rw.err = err
}

func (rw *resultWriter) start(shard string, s *runSettings) {
	rw.line(runLine{Kind: "run", Version: resultsVersion, Shard: shard, Run: s})
}

// test writes t's corpus entry, if its trace is in its package's corpus,
// and its record.
func (rw *resultWriter) test(p *driver.PackageSummary, t *driver.TestSummary) {
	if c := corpusEntry(p, t); c != nil {
		rw.corpus(c)
	}
	r := testRecordOf(p.Path, t)
	rw.line(runLine{Kind: "test", Test: &r})
}

func (rw *resultWriter) pkg(p *driver.PackageSummary) {
	l := &packageLine{Path: p.Path, Issues: p.Issues, BuildNS: int64(p.Build), ElapsedNS: int64(p.Elapsed), Output: p.Output}
	if p.Err != nil {
		l.Error = p.Err.Error()
	}
	rw.line(runLine{Kind: "package", Package: l})
	for _, c := range p.Checks {
		rw.line(runLine{Kind: "check", Check: c})
	}
}

func (rw *resultWriter) end() { rw.line(runLine{Kind: "end"}) }

// savedTrace is a failing test's trace saved in its package's corpus: the
// fields of its corpus line but its trace and log, which are read from
// their files as the line is written (resultWriter.corpus).
type savedTrace struct {
	line       corpusLine
	trace, log string
}

// corpusEntry is t's saved trace if it is in its package's corpus under
// its module.
func corpusEntry(p *driver.PackageSummary, t *driver.TestSummary) *savedTrace {
	if t.Trace == "" || p.Dir() == "" {
		return nil
	}
	rel, err := filepath.Rel(p.Dir(), t.Trace)
	if err != nil || !strings.HasPrefix(filepath.ToSlash(rel), "testdata/morpheus/") {
		return nil
	}
	root := moduleRoot(p.Dir())
	dir, err := filepath.Rel(root, p.Dir())
	if root == "" || err != nil || strings.HasPrefix(filepath.ToSlash(dir), "../") {
		return nil
	}
	return &savedTrace{line: corpusLine{Package: p.Path, Test: t.Name, Dir: filepath.ToSlash(dir), Path: filepath.ToSlash(rel)},
		trace: t.Trace, log: t.Log}
}

// corpus writes c's corpus line, the JSON json.Marshal writes for it, with
// its trace and log streamed from their files: a real test's trace reaches
// hundreds of megabytes, which the writer never holds whole. A trace that
// cannot be opened writes no line; a log that cannot, a line without it.
func (rw *resultWriter) corpus(c *savedTrace) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.err != nil {
		return
	}
	tr, err := os.Open(c.trace)
	if err != nil {
		return
	}
	defer tr.Close()
	var log io.Reader
	if c.log != "" {
		if f, err := os.Open(c.log); err == nil {
			defer f.Close()
			log = f
		}
	}
	rw.err = writeCorpusLine(rw.w, &c.line, tr, log)
}

// writeCorpusLine writes the line of l, whose Trace and Log are read from
// trace and log (nil: none), to w.
func writeCorpusLine(w io.Writer, l *corpusLine, trace, log io.Reader) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`{"kind":"corpus","corpus":{`)
	for i, f := range [...]struct{ k, v string }{{"package", l.Package}, {"test", l.Test}, {"dir", l.Dir}, {"path", l.Path}} {
		if i > 0 {
			bw.WriteByte(',')
		}
		v, _ := json.Marshal(f.v)
		fmt.Fprintf(bw, "%q:%s", f.k, v)
	}
	bw.WriteString(`,"trace":`)
	if err := writeJSONString(bw, trace); err != nil {
		return err
	}
	if log != nil {
		// As omitempty: an empty log is no field.
		var first [1]byte
		n, err := io.ReadFull(log, first[:])
		if err != nil && err != io.EOF {
			return err
		}
		if n > 0 {
			bw.WriteString(`,"log":`)
			if err := writeJSONString(bw, io.MultiReader(bytes.NewReader(first[:n]), log)); err != nil {
				return err
			}
		}
	}
	bw.WriteString("}}\n")
	return bw.Flush()
}

// jsonChunk is how much of a streamed string writeJSONString escapes at a
// time.
const jsonChunk = 64 << 10

// writeJSONString writes what r reads as a JSON string, escaped as
// json.Marshal escapes a Go string (invalid UTF-8 as U+FFFD), a chunk at a
// time: chunks end on a rune's boundary, so a rune split by a read is
// escaped whole.
func writeJSONString(w *bufio.Writer, r io.Reader) error {
	w.WriteByte('"')
	buf := make([]byte, jsonChunk)
	n := 0 // bytes in buf
	for {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil && err != io.EOF {
			return err
		}
		end := n
		if err == nil {
			end = runeCut(buf[:n])
		}
		if end > 0 {
			b, _ := json.Marshal(string(buf[:end]))
			w.Write(b[1 : len(b)-1])
		}
		n = copy(buf, buf[end:n])
		if err == io.EOF {
			break
		}
	}
	return w.WriteByte('"')
}

// runeCut is where b is cut so that no rune is split: before the last rune
// if b ends inside it.
func runeCut(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// moduleRoot is the directory of the go.mod above dir, "" if none.
func moduleRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// testRecordOf is a rewritten test's -json record.
func testRecordOf(pkg string, t *driver.TestSummary) testRecord {
	r := testRecord{Package: pkg, Test: t.Name, Schedules: t.Schedules, Steps: t.Steps,
		Skipped: t.Skipped, Kind: t.Kind, Location: t.Location, Failure: t.Failure,
		Trace: t.Trace, Log: t.Log, Foreign: t.Foreign, Stale: t.Stale, Task: t.Task, Message: t.Message,
		Interrupted: t.Interrupted, Real: t.Real, Stopped: t.Stopped, Seconds: t.Elapsed.Seconds(),
		Passed: t.Passed, Pruned: t.Pruned, Cached: t.Cached, History: t.History}
	if t.Failure != "" {
		n := t.Schedule
		r.Schedule = &n
	}
	return r
}

// testSummaryOf is the inverse of testRecordOf.
func testSummaryOf(r *testRecord) *driver.TestSummary {
	t := &driver.TestSummary{Name: r.Test, Schedules: r.Schedules, Steps: r.Steps, Skipped: r.Skipped,
		Kind: r.Kind, Location: r.Location, Failure: r.Failure, Trace: r.Trace, Log: r.Log, Foreign: r.Foreign,
		Stale: r.Stale, Task: r.Task, Message: r.Message, Interrupted: r.Interrupted, Real: r.Real,
		Stopped: r.Stopped, Elapsed: time.Duration(r.Seconds * float64(time.Second)), Passed: r.Passed, Pruned: r.Pruned,
		Cached: r.Cached, History: r.History}
	if r.Schedule != nil {
		t.Schedule = *r.Schedule
	}
	return t
}

// packageRecords are the -json records of a package that follow its tests':
// its error, then its Checks'.
func packageRecords(p *driver.PackageSummary) []testRecord {
	var out []testRecord
	if p.Err != nil {
		msg := p.Err.Error()
		if p.Output != "" {
			msg += "\n" + tail(p.Output, 40)
		}
		out = append(out, testRecord{Package: p.Path, Error: msg})
	}
	for _, c := range p.Checks {
		out = append(out, checkTestRecord(p.Path, c))
	}
	return out
}

// errNotRewritten: a file of morpheus.Check records, not of a rewritten run.
var errNotRewritten = errors.New("not a result file of morpheus test's rewritten tests")

// resultFile is one file's lines, checked.
type resultFile struct {
	name  string
	shard string
	i, n  int // the shard, 0/1 unsharded
	run   *runSettings
	lines []runLine
	nums  []int // each line's number
	ended bool
}

// readResults reads a result file of morpheus test; errNotRewritten if its
// first line is not a "run" line (a file of Check records). Errors name
// the file and the line.
func readResults(rd io.Reader, name string) (*resultFile, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	f := &resultFile{name: name, n: 1}
	for n, text := range strings.Split(string(data), "\n") {
		n++
		if strings.TrimSpace(text) == "" {
			continue
		}
		var l runLine
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil || dec.More() {
			if f.run == nil {
				return nil, errNotRewritten
			}
			if err == nil {
				err = errors.New("more than one JSON value")
			}
			return nil, fmt.Errorf("%s:%d: expected a JSON result line: %v", name, n, err)
		}
		if f.run == nil && l.Kind != "run" {
			return nil, errNotRewritten
		}
		if err := f.check(l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		f.lines = append(f.lines, l)
		f.nums = append(f.nums, n)
	}
	if f.run == nil {
		return nil, fmt.Errorf("%s: empty: expected a \"run\" line first", name)
	}
	return f, nil
}

// check checks line l, given the lines before it.
func (f *resultFile) check(l runLine) error {
	if f.ended {
		return errors.New(`a line after the "end" line`)
	}
	payloads := 0
	for _, set := range []bool{l.Run != nil, l.Test != nil, l.Corpus != nil, l.Package != nil, l.Check != nil} {
		if set {
			payloads++
		}
	}
	want := map[string]bool{"run": l.Run != nil, "test": l.Test != nil, "corpus": l.Corpus != nil,
		"package": l.Package != nil, "check": l.Check != nil, "end": true}
	ok, known := want[l.Kind]
	switch {
	case !known:
		return fmt.Errorf("kind %q: expected run, test, corpus, package, check or end", l.Kind)
	case !ok || payloads > 1 || l.Kind == "end" && payloads > 0:
		return fmt.Errorf("a %q line with the fields of another kind", l.Kind)
	case l.Kind != "run" && (l.Version != 0 || l.Shard != ""):
		return fmt.Errorf("a %q line with a run's version or shard", l.Kind)
	}
	switch l.Kind {
	case "run":
		if f.run != nil {
			return errors.New(`a second "run" line`)
		}
		if l.Version != resultsVersion {
			return fmt.Errorf("version %d: expected %d", l.Version, resultsVersion)
		}
		if l.Shard != "" {
			i, n, err := results.ParseShard(l.Shard)
			if err != nil {
				return fmt.Errorf("shard %q: %v", l.Shard, err)
			}
			f.i, f.n = i, n
		}
		f.shard, f.run = l.Shard, l.Run
	case "test":
		t := l.Test
		if t.Package == "" || t.Test == "" {
			return errors.New("a test line without its package and test")
		}
		if t.Schedules < 0 || t.Steps < 0 || t.Seconds < 0 || t.Schedule != nil && *t.Schedule < -1 {
			return errors.New("expected non-negative counts")
		}
		if (t.Failure == "") != (t.Schedule == nil) {
			return errors.New("a failing test's line says its failing schedule, another's none")
		}
	case "corpus":
		c := l.Corpus
		if c.Package == "" || c.Test == "" || c.Trace == "" {
			return errors.New("a corpus line without its package, test and trace")
		}
		p := filepath.ToSlash(filepath.Clean(filepath.FromSlash(c.Path)))
		d := filepath.ToSlash(filepath.Clean(filepath.FromSlash(c.Dir)))
		if p != c.Path || !strings.HasPrefix(p, "testdata/morpheus/") || strings.Contains(p, "..") ||
			filepath.IsAbs(c.Dir) || strings.HasPrefix(c.Dir, "/") || d == ".." || strings.HasPrefix(d, "../") {
			return fmt.Errorf("corpus path %q in %q: expected testdata/morpheus/... in a directory of the module", c.Path, c.Dir)
		}
	case "package":
		if l.Package.Path == "" {
			return errors.New("a package line without its path")
		}
	case "check":
		if l.Check.Package == "" {
			return errors.New("a Check's record without its package")
		}
		b, _ := json.Marshal(l.Check)
		if _, err := results.Read(strings.NewReader(string(b)), "check"); err != nil {
			return fmt.Errorf("check record: %v", err)
		}
	case "end":
		f.ended = true
	}
	return nil
}
