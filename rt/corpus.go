package rt

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/corpus"
	"github.com/morpheus-go/morpheus/trace"
)

// With EnvCorpus=true (morpheus test sets it) a rewritten test keeps its
// failing traces as morpheus.Check does, in its package's
// testdata/morpheus/<Test>/, named by the hash of their content, and
// replays them strictly before it explores: a trace that still fails is
// the test's failure; one the code no longer follows (recorded on
// different code, typically before a fix) is listed as stale
// (Result.Stale) and the exploration goes on; one that passes is the fix.
// The go command ignores testdata: a saved trace changes no build.

// ModeOption and ModeRewritten mark the trace of a rewritten test
// (trace.Header.Options).
const (
	ModeOption    = "mode"
	ModeRewritten = "rewritten"
)

// corpusOn reports whether EnvCorpus asks for the corpus.
func corpusOn() bool {
	on, _ := strconv.ParseBool(getenv(EnvCorpus))
	return on
}

// corpusRun is what the replay of a test's saved traces found.
type corpusRun struct {
	failed  *morpheus.Result // the first entry that still fails, nil if none does
	path    string           // its path
	stale   []string         // "PATH: where the run left it"
	passed  []string         // entries whose replay passes: the bug is fixed
	retry   []string         // entries that diverged: replayed again after the exploration
	reasons map[string]string
}

// replayCorpus replays the test's saved traces, each as one schedule in
// this process, before its exploration. An entry whose replay diverges
// (recorded on different code, or after other schedules filled a cache the
// code reads) is replayed once more after the exploration, which warmed the
// process's caches (retryCorpus); one whose replay blocks outside control
// where the trace recorded another failure is stale. Neither stops the
// exploration.
func replayCorpus(t *testing.T, run func(*morpheus.Env), opts []morpheus.Option) *corpusRun {
	t.Helper()
	c := &corpusRun{reasons: map[string]string{}}
	listed := corpusListed()
	for _, p := range corpus.Entries(corpus.Dir(t.Name())) {
		if listed != nil && !listed[filepath.ToSlash(p)] {
			continue // saved by another process of this run
		}
		res, err := morpheus.Explore(run, append(opts[:len(opts):len(opts)], morpheus.Replay(p))...)
		ranReplay(t.Name(), p)
		switch why := c.judge(p, res, err); why {
		case "":
		case "diverged":
			c.retry = append(c.retry, p)
		default:
			c.stale = append(c.stale, p+": "+why)
		}
		if c.failed != nil {
			return c
		}
	}
	return c
}

// retryCorpus replays the entries that diverged before the exploration once
// more: those that diverge again are stale.
func (c *corpusRun) retryCorpus(t *testing.T, run func(*morpheus.Env), opts []morpheus.Option) {
	t.Helper()
	for _, p := range c.retry {
		res, err := morpheus.Explore(run, append(opts[:len(opts):len(opts)], morpheus.Replay(p))...)
		ranReplay(t.Name(), p)
		switch why := c.judge(p, res, err); why {
		case "":
		case "diverged":
			c.stale = append(c.stale, p+": "+c.reasons[p])
		default:
			c.stale = append(c.stale, p+": "+why)
		}
		if c.failed != nil {
			break
		}
	}
	c.retry = nil
}

// judge records the replay of entry p: "" if it passed or still fails,
// "diverged", or why it is stale.
func (c *corpusRun) judge(p string, res *morpheus.Result, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case res.Failure == nil:
		c.passed = append(c.passed, p)
	case res.Failure.Kind == "stale-trace" && strings.Contains(res.Failure.Message, "the trace had ended"):
		// The run followed every step of the trace and went on where the
		// trace failed: the failure no longer happens, the bug is fixed.
		c.passed = append(c.passed, p)
	case res.Failure.Kind == "stale-trace" || res.Failure.Kind == "nondeterminism":
		c.reasons[p] = divergence(p, res.Failure.Message)
		return "diverged"
	case res.Failure.Kind == string(core.Uncontrolled) && recordedKind(p) != string(core.Uncontrolled):
		// The replay blocked outside control where the trace recorded
		// another failure: the code changed under it.
		return "blocked outside control during the replay (" + firstLine(res.Failure.Message) + ")"
	default:
		c.failed, c.path = res, p
	}
	return ""
}

// recordedKind is the kind of failure the trace at p recorded.
func recordedKind(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	tr, err := trace.Decode(f, p)
	if err != nil || tr.Header.Failure == nil {
		return ""
	}
	return tr.Header.Failure.Kind
}

// replayAgain explores with opts. When they replay a trace (replay, the
// last option) that the run leaves, it warms the process's caches with one
// schedule and replays again: a trace recorded after other schedules
// (shrinking's, or other tests') ran in the same process may depend on
// caches they filled (go-msgpack's type information).
func replayAgain(t *testing.T, run func(*morpheus.Env), opts []morpheus.Option, replay string) (*morpheus.Result, error) {
	t.Helper()
	res, err := morpheus.Explore(run, opts...)
	if err != nil {
		return nil, err
	}
	if f := res.Failure; replay != "" && f != nil && (f.Kind == "nondeterminism" || f.Kind == "stale-trace") {
		t.Logf("morpheus: the replay diverged (%s); warming the process's caches with one schedule and replaying again", f.Message)
		warm := append(opts[:len(opts)-1:len(opts)-1], morpheus.Iterations(1), morpheus.Shrink(0))
		if _, err := morpheus.Explore(run, warm...); err != nil {
			return nil, err
		}
		return morpheus.Explore(run, opts...)
	}
	return res, nil
}

// saveFailure saves a failing trace: in the package's corpus with
// EnvCorpus (a path relative to the package's directory, which the replay
// command printed runs in), else, or when testdata cannot be written (a
// package of the module cache), under EnvTraces.
//
// The trace records that it is a rewritten test's (the option
// mode=rewritten), so that morpheus replay and shrink run it as morpheus test
// does rather than under plain go test.
func saveFailure(test string, tr *trace.Trace) (string, error) {
	markRewritten(tr)
	if corpusOn() {
		if path, err := corpus.Save(corpus.Dir(test), tr); err == nil {
			return path, nil
		}
	}
	return saveTrace(test, tr)
}

// markRewritten records in tr that it is a rewritten test's.
func markRewritten(tr *trace.Trace) {
	if tr.Header.Options == nil {
		tr.Header.Options = map[string]string{}
	}
	tr.Header.Options[ModeOption] = ModeRewritten
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil && p != "" {
		return a
	}
	return p
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// corpusListed returns the traces EnvCorpusList lets the replay read, nil
// for all of them.
func corpusListed() map[string]bool {
	path := getenv(EnvCorpusList)
	if path == "" {
		return nil
	}
	data, _ := os.ReadFile(path)
	m := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			m[l] = true
		}
	}
	return m
}

// divergence is where a stale trace's replay left it: the message of
// morpheus's stale-trace failure without the file's name and the advice
// ("at step 7 it expected g1 read at bank.go:11, the run does …").
func divergence(path, msg string) string {
	msg = firstLine(msg)
	msg = strings.TrimPrefix(msg, path+": ")
	msg = strings.TrimPrefix(msg, "this trace was recorded on different code: ")
	return strings.TrimSuffix(msg, "; delete it if the bug is fixed")
}
