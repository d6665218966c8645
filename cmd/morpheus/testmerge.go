package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// morpheus merge of morpheus test's result files (testresults.go): the
// shards of one run (morpheus test -shard i/N -results FILE on N machines)
// become the run's summary, -json records and corpus, as one unsharded run
// gives them. Each shard ran, of every test, the schedules whose number is
// i modulo N, with the seeds they have in the whole run; a test's records
// merge as its processes' do on one machine (driver.TestSummary.Merge).

// mergedRun is the merge of a run's result files.
type mergedRun struct {
	sum    *driver.Summary
	order  map[string][]string // each package's tests in the order the run ran them
	corpus map[string]*corpusLine
	shards []*resultFile
	run    *runSettings
}

// mergeResultFiles merges files, the shards of one run. Unless partial,
// every shard of N must be there and have finished.
func mergeResultFiles(files []*resultFile, partial bool) (*mergedRun, error) {
	first := files[0]
	byShard := map[int]*resultFile{}
	for _, f := range files {
		if !reflect.DeepEqual(f.run, first.run) {
			return nil, fmt.Errorf("%s:%d: a different run from %s's (its settings: %s; %s's: %s)",
				f.name, f.nums[0], first.name, settingsText(f.run), first.name, settingsText(first.run))
		}
		if f.n != first.n {
			return nil, fmt.Errorf("%s:%d: shard %s of a run in %s, %s is of one in %d",
				f.name, f.nums[0], shardText(f), plural.N(f.n, "shard"), first.name, first.n)
		}
		if g, ok := byShard[f.i]; ok {
			return nil, fmt.Errorf("%s:%d: shard %s twice (%s holds it too)", f.name, f.nums[0], shardText(f), g.name)
		}
		byShard[f.i] = f
		if !f.ended && !partial {
			return nil, fmt.Errorf("%s: shard %s did not finish (no \"end\" line: killed, or still running); -partial merges what it holds", f.name, shardText(f))
		}
	}
	var missing []string
	for i := range first.n {
		if byShard[i] == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.n))
		}
	}
	if len(missing) > 0 && !partial {
		return nil, fmt.Errorf("missing shards %s of %d (-partial merges those given)", strings.Join(missing, ", "), first.n)
	}
	shards := slices.Clone(files)
	sort.Slice(shards, func(a, b int) bool { return shards[a].i < shards[b].i })

	m := &mergedRun{sum: &driver.Summary{}, order: map[string][]string{}, corpus: map[string]*corpusLine{},
		shards: shards, run: first.run}
	pkgs := map[string]*driver.PackageSummary{}
	seenPkg := map[string]bool{}
	tests := map[string]*driver.TestSummary{}
	var checks []*results.Record
	pkg := func(path string) *driver.PackageSummary {
		p := pkgs[path]
		if p == nil {
			p = &driver.PackageSummary{Path: path}
			pkgs[path] = p
		}
		return p
	}
	for _, f := range shards {
		corpus := map[string]*corpusLine{} // this shard's, by test
		for _, l := range f.lines {
			switch l.Kind {
			case "corpus":
				corpus[l.Corpus.Package+"\x00"+l.Corpus.Test] = l.Corpus
			case "test":
				p := pkg(l.Test.Package)
				key := l.Test.Package + "\x00" + l.Test.Test
				o := testSummaryOf(l.Test)
				t := tests[key]
				if t == nil {
					t = o
					tests[key] = t
					p.Tests = append(p.Tests, t)
					m.order[p.Path] = append(m.order[p.Path], t.Name)
				} else {
					wins := o.Failure != "" && (t.Failure == "" || o.Schedule < t.Schedule)
					t.Merge(o)
					if !wins {
						continue
					}
				}
				if o.Failure != "" {
					m.corpus[key] = corpus[key] // nil if its trace is not in a corpus
				}
			case "package":
				p := pkg(l.Package.Path)
				pl := l.Package
				if !seenPkg[p.Path] {
					seenPkg[p.Path] = true
					p.Issues, p.Output = pl.Issues, pl.Output
				}
				p.Build = max(p.Build, time.Duration(pl.BuildNS))
				p.Elapsed = max(p.Elapsed, time.Duration(pl.ElapsedNS))
				if p.Err == nil && pl.Error != "" {
					p.Err, p.Output = errors.New(pl.Error), pl.Output
				}
			case "check":
				checks = append(checks, l.Check)
			}
		}
	}
	merged, err := results.Merge(checks, partial)
	if err != nil {
		return nil, fmt.Errorf("the Checks' records: %v", err)
	}
	for _, r := range merged {
		p := pkg(r.Package)
		p.Checks = append(p.Checks, r)
	}
	paths := make([]string, 0, len(pkgs))
	for path := range pkgs {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		p := pkgs[path]
		sort.Slice(p.Tests, func(i, j int) bool { return p.Tests[i].Name < p.Tests[j].Name })
		m.sum.Packages = append(m.sum.Packages, p)
	}
	return m, nil
}

// saveCorpus saves, under the module at dir, the trace of each failing
// test that the summary names, as the unsharded run keeps it (once, in
// its package's testdata/morpheus/<Test>/), and points the test at it.
func (m *mergedRun) saveCorpus(dir string) error {
	for _, p := range m.sum.Packages {
		for _, t := range p.Tests {
			c := m.corpus[p.Path+"\x00"+t.Name]
			if t.Failure == "" || c == nil {
				continue
			}
			path := filepath.Join(dir, filepath.FromSlash(c.Dir), filepath.FromSlash(c.Path))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(c.Trace), 0o644); err != nil {
				return err
			}
			t.Trace, t.Log = absPath(path), ""
			if c.Log != "" {
				if err := os.WriteFile(path+".log", []byte(c.Log), 0o644); err != nil {
					return err
				}
				t.Log = absPath(path + ".log")
			}
		}
	}
	return nil
}

// write writes the merged run as one unsharded run's result file.
func (m *mergedRun) write(w io.Writer) error {
	rw := &resultWriter{w: w}
	rw.start("", m.run)
	for _, p := range m.sum.Packages {
		byName := map[string]*driver.TestSummary{}
		for _, t := range p.Tests {
			byName[t.Name] = t
		}
		for _, name := range m.order[p.Path] {
			if c := m.corpus[p.Path+"\x00"+name]; c != nil && byName[name].Failure != "" {
				rw.line(runLine{Kind: "corpus", Corpus: c})
			}
			r := testRecordOf(p.Path, byName[name])
			rw.line(runLine{Kind: "test", Test: &r})
		}
		rw.pkg(p)
	}
	rw.end()
	return rw.err
}

// mergeRewritten is morpheus merge of result files of rewritten runs.
func mergeRewritten(files []*resultFile, out, reportDir, dir string, partial, asJSON bool, stdout io.Writer) error {
	m, err := mergeResultFiles(files, partial)
	if err != nil {
		return err
	}
	if dir != "" {
		if err := m.saveCorpus(dir); err != nil {
			return err
		}
	}
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		if err := m.write(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if asJSON {
		if err := writeTestRecords(stdout, m.sum, m.order); err != nil {
			return err
		}
	} else {
		explainDeadlocks(m.sum)
		printTestSummary(stdout, m.sum)
	}
	if reportDir != "" {
		if err := finishChecks(stdout, m.sum, reportDir, asJSON); err != nil {
			return err
		}
	}
	if m.sum.Failed() {
		return errTestsFailed
	}
	return nil
}

// errTestsFailed: the merged run has a failure, as morpheus test exits 1 for.
var errTestsFailed = errors.New("tests failed under control")

func shardText(f *resultFile) string {
	if f.shard == "" {
		return "(the whole run)"
	}
	return f.shard
}

func settingsText(s *runSettings) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprintf("%+v", *s)
}
