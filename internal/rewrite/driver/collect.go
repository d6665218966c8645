package driver

import (
	"encoding/json"
	"io"
	"os"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// A collector gathers the records a package's test processes append to
// their files (rt.EnvOut) while they run, and hands each test's merged
// outcome over (Config.Finished) as soon as every process reported it: a
// run that is killed later has already given what finished. The processes
// run the tests in the same order (the test binary's, their order in the
// source), so the tests are handed over in that order, each once.
type collector struct {
	cfg        Config
	p          *PackageSummary
	tmp        string
	jobs       int
	dirs       []jobDir // each process's working directory
	outputs    []*procOutput
	corpusList string
	offsets    []int64 // how far each process's file was read
	byName     map[string]*collected
	order      []string // the tests by their first record
	next       int      // order[next] is the next test to hand over
	before     map[string]bool
	stats      []*procStat // with EnvPhases, each process's (procphases.go)
}

// collected is one test's outcome so far.
type collected struct {
	t       *TestSummary
	reports int      // processes that reported it
	found   []string // the traces of its failing records
	ran     []int    // the processes that ran it outside control (rt.RealTest)
}

// poll reads the records written since the last poll and hands over the
// tests that are complete; final (every process has ended) hands over the
// rest too.
func (c *collector) poll(final bool) {
	for j := range c.jobs {
		c.read(j)
	}
	for c.next < len(c.order) {
		e := c.byName[c.order[c.next]]
		if !final && !c.complete(e) {
			return
		}
		c.finish(e)
		c.next++
	}
}

// read reads process j's new complete lines.
func (c *collector) read(j int) {
	f, err := os.Open(jobFile(c.tmp, j))
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(c.offsets[j], io.SeekStart); err != nil {
		return
	}
	// Long strings cut as they are read (reccap.go): a record costs no
	// more than the summary keeps of it.
	n, _ := capLines(f, func(line []byte) {
		var r rt.Result
		if json.Unmarshal(line, &r) == nil && r.Test != "" {
			if j < len(c.dirs) {
				d := c.dirs[j]
				r.Failure, r.Message, r.Location, r.Trace = d.real(r.Failure), d.real(r.Message), d.real(r.Location), d.real(r.Trace)
			}
			c.add(r, j)
		}
	})
	c.offsets[j] += n
}

func (c *collector) add(r rt.Result, j int) {
	t := fromResult(r, j)
	if c.stats != nil && c.stats[j] != nil {
		c.stats[j].explored += time.Duration(r.Nanos)
		c.stats[j].explore[r.Test] += time.Duration(r.Nanos)
	}
	e := c.byName[r.Test]
	if e == nil {
		e = &collected{t: t}
		c.byName[r.Test] = e
		c.order = append(c.order, r.Test)
		c.p.Tests = append(c.p.Tests, t)
	} else {
		e.t.Merge(t)
	}
	e.reports++
	if r.Real != "" && r.Schedules > 0 {
		e.ran = append(e.ran, j) // the others' records only say what it is
	}
	if r.Failure != "" {
		e.found = append(e.found, r.Trace)
	}
}

// complete reports whether every process reported e's test and, if it
// failed, the failing process has written the test's output to its end.
func (c *collector) complete(e *collected) bool {
	if e.reports < c.jobs {
		return false
	}
	if e.t.Real != "" && e.t.Failure == "" {
		// It ran outside control: goroutines it left may still crash
		// the process before testing's verdict (failCrashed). The
		// verdict of the process that ran it must be read, not only its
		// record, which may come before the output's lines.
		for _, j := range e.ran {
			if !c.outputs[j].ended(e.t.Name) {
				return false
			}
		}
		return c.verdicts(e.t.Name)
	}
	return e.t.Failure == "" || c.outputs[e.t.proc].failedTest(e.t.Name)
}

// verdicts reports whether every process that started test has printed
// testing's verdict on it.
func (c *collector) verdicts(test string) bool {
	for _, o := range c.outputs {
		if o.started(test) && !o.ended(test) {
			return false
		}
	}
	return true
}

// finish completes e's test with what only its processes' output and the
// corpus hold, and hands it over.
func (c *collector) finish(e *collected) {
	t := e.t
	if t.Failure != "" {
		o := c.outputs[t.proc]
		if t.Real != "" {
			t.Failure += "\n" + o.testOutput(t.Name)
		}
		t.Log = keepOutput(t, func(w io.Writer) (int64, error) { return o.copyTest(w, t.Name) })
	}
	if c.cfg.Corpus {
		if c.before == nil {
			c.before = readCorpusList(c.corpusList)
		}
		keepOnce(c.p.dir, t, e.found, c.before)
		if c.cfg.Prune {
			prune(c.p.dir, t)
		}
	}
	if c.cfg.Finished != nil {
		c.cfg.Finished(c.p, t)
	}
}
