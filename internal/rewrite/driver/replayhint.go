package driver

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// replayHint is the replay command rt prints for a failing test of p
// (rt.EnvHint, with %s for the trace and the -run pattern). With the
// corpus the trace's path is relative to the package's directory; the
// command runs where the user ran morpheus test: it names -C's directory
// as given, and the package and its trace relative to it
// ("-replay a/testdata/morpheus/TestX/… ./a"), or, for a package outside
// that directory, by its import path and the trace's absolute path. A
// replay's command names the trace it was given, relative to -C's
// directory (%.0s consumes the path rt passes, the absolute one).
// Without the corpus the trace is in the cache, and the command names the
// package.
func replayHint(cfg Config, p *PackageSummary) string {
	esc := func(s string) string { return strings.ReplaceAll(ShellQuote(s), "%", "%%") }
	if !cfg.Corpus {
		return "morpheus rewrite -replay %s -run '%s' " + esc(p.Path)
	}
	cflag := ""
	if cfg.Dir != "" && cfg.Dir != "." {
		cflag = " -C " + esc(cfg.Dir)
	}
	trace := func(dir string) string {
		if dir == "" {
			return "%s"
		}
		return dir + "/%s"
	}
	if cfg.Replay != "" {
		given := cfg.Replay
		if r, err := filepath.Rel(absPath(cfg.Dir), cfg.Replay); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			given = r
		}
		trace = func(string) string { return esc(filepath.ToSlash(given)) + "%.0s" }
	}
	rel, err := filepath.Rel(absPath(cfg.Dir), p.dir)
	switch {
	case err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)):
		return "morpheus test" + cflag + " -replay " + trace(esc(p.dir)) + " -run '%s' " + esc(p.Path)
	case rel == ".":
		return "morpheus test" + cflag + " -replay " + trace("") + " -run '%s' ."
	}
	rel = esc(filepath.ToSlash(rel))
	return "morpheus test" + cflag + " -replay " + trace(rel) + " -run '%s' ./" + rel
}

// ReplayCommand is the command that replays the trace at path of p's Check
// test, path as the Check's record names it (relative to p's directory, or
// absolute), from where morpheus test ran: the command rt prints for a
// rewritten test (replayHint), always in the corpus's form, since a Check
// saves its traces under its package's testdata/morpheus whatever -corpus
// says. "" for no trace.
func (p *PackageSummary) ReplayCommand(path, test string) string {
	if p == nil || path == "" {
		return ""
	}
	cfg := Config{Dir: p.hintDir, Replay: p.hintReplay, Corpus: true}
	if filepath.IsAbs(path) && cfg.Replay == "" {
		if r, err := filepath.Rel(p.dir, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			path = filepath.ToSlash(r)
		} else {
			cfg.Replay = path // named as a replay names its trace
		}
	}
	return fmt.Sprintf(replayHint(cfg, p), path, "^"+strings.ReplaceAll(test, "/", "$/^")+"$")
}

// shownDir is p's directory as the user names it where morpheus test ran:
// relative to -C's directory ("a/b", "" for that directory itself), or
// absolute for a package outside it. Paths of the corpus that the summary
// and the reports print (trace saved, stale entries) are shown under it,
// as the replay command names them (rt.EnvShownDir).
func shownDir(cfg Config, dir string) string {
	rel, err := filepath.Rel(absPath(cfg.Dir), dir)
	switch {
	case err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)):
		return dir
	case rel == ".":
		return ""
	}
	return filepath.ToSlash(rel)
}

// Shown returns path, relative to the package's directory (a corpus
// entry), as the user names it where morpheus test ran (see shownDir); a
// nil p (a Check's record, outside the driver) returns path.
func (p *PackageSummary) Shown(path string) string {
	if p == nil || p.shown == "" || filepath.IsAbs(path) {
		return path
	}
	return p.shown + "/" + filepath.ToSlash(path)
}

// replayPackages returns, of the packages a replay matched, the one whose
// directory holds the trace (under its testdata/morpheus), when one does:
// "-replay a/testdata/morpheus/TestX/… ./..." replays the trace in its own
// package, not in every package that has a test of that name. Otherwise
// (a trace kept elsewhere) it returns them all.
func replayPackages(trace string, pkgs []*PackageSummary) []*PackageSummary {
	abs := absPath(trace)
	for _, p := range pkgs {
		if p.dir != "" && strings.HasPrefix(abs, filepath.Join(p.dir, "testdata", "morpheus")+string(filepath.Separator)) {
			return []*PackageSummary{p}
		}
	}
	return pkgs
}

// ShellQuote quotes s for a POSIX shell when it holds a character the
// shell would read.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./@+:,=~") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// keepOutput saves what t printed in the process that failed it (output
// writes it: procOutput.copyTest) beside its trace when the report says
// that the failure's message is there (a t.Fatal on a testing.TB rt.T did
// not see, a Goexit), and returns the file's path, "" otherwise or when
// it printed nothing: a rewritten test's messages are in its report, with
// the failing schedule's log.
func keepOutput(t *TestSummary, output func(io.Writer) (int64, error)) string {
	if t.Trace == "" || !strings.Contains(t.Failure, "test's output") && !strings.Contains(t.Failure, "test's log") {
		return ""
	}
	path := t.Trace + ".log"
	f, err := os.Create(path)
	if err != nil {
		return ""
	}
	n, err := output(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || n == 0 {
		os.Remove(path)
		return ""
	}
	return path
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// listCorpus writes to file the traces saved under dir's
// testdata/morpheus (rt.EnvCorpusList), a path relative to dir with
// slashes a line: the corpus as the run starts.
func listCorpus(dir, file string) error {
	root := filepath.Join(dir, "testdata", "morpheus")
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return filepath.SkipDir
			}
			return err
		}
		if !d.IsDir() && !strings.Contains(d.Name(), ".") {
			rel, _ := filepath.Rel(dir, path)
			b.WriteString(filepath.ToSlash(rel) + "\n")
		}
		return nil
	})
	if err != nil {
		return err
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}
