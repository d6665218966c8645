package driver

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// replayHint is the replay command rt prints for a failing test of p
// (rt.EnvHint, with %s for the trace and the -run pattern). With the
// corpus the trace's path is relative to the package's directory, and so
// is the command: it runs there, as Check's "go test -run … -morpheus.replay"
// does. Without it the trace is in the cache, and the command names the
// package.
func replayHint(cfg Config, p *PackageSummary) string {
	if cfg.Corpus {
		return "morpheus test -replay %s -run '%s' ."
	}
	return "morpheus rewrite -replay %s -run '%s' " + strings.ReplaceAll(p.Path, "%", "%%")
}

// keepOutput saves output, what t printed in the process that failed it
// (testOutput), beside its trace when the report says that the failure's
// message is there (a t.Fatal on a testing.TB rt.T did not see, a Goexit),
// and returns the file's path, "" otherwise: a rewritten test's messages
// are in its report, with the failing schedule's log.
func keepOutput(t *TestSummary, output string) string {
	if t.Trace == "" || output == "" || !strings.Contains(t.Failure, "test's output") && !strings.Contains(t.Failure, "test's log") {
		return ""
	}
	if os.WriteFile(t.Trace+".log", []byte(output), 0o644) != nil {
		return ""
	}
	return t.Trace + ".log"
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
