package rt

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
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

// replayCorpus replays the test's saved traces. It returns the result and
// path of the first that still fails (nil if none does) and the stale
// entries, "PATH: where the run left it" each.
func replayCorpus(t *testing.T, run func(*morpheus.Env), opts []morpheus.Option) (failed *morpheus.Result, path string, stale []string) {
	t.Helper()
	listed := corpusListed()
	for _, p := range corpus.Entries(corpus.Dir(t.Name())) {
		if listed != nil && !listed[filepath.ToSlash(p)] {
			continue // saved by another process of this run
		}
		res, err := replayAgain(t, run, append(opts[:len(opts):len(opts)], morpheus.Replay(p)), p)
		switch {
		case err != nil:
			stale = append(stale, p+": "+err.Error())
		case res.Failure == nil:
		case res.Failure.Kind == "stale-trace" || res.Failure.Kind == "nondeterminism":
			stale = append(stale, p+": "+divergence(p, res.Failure.Message))
		default:
			return res, p, stale
		}
	}
	return nil, "", stale
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
