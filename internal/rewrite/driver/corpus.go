package driver

import (
	"os"
	"path/filepath"
	"strings"
)

// The rewritten tests' corpus (Config.Corpus), as the run leaves it: a
// failure several processes found is kept once, and with Config.Prune the
// entries a fixed test no longer needs go.

// keepOnce removes the traces that processes other than the reported one
// saved in this run for t's failure: the corpus keeps the trace the summary
// names, so the next run replays and names that one. found are the traces
// of t's failing records; before the corpus before the run (paths relative
// to dir, slashed).
func keepOnce(dir string, t *TestSummary, found []string, before map[string]bool) {
	for _, tr := range found {
		if tr == "" || tr == t.Trace {
			continue
		}
		rel, err := filepath.Rel(dir, tr)
		if err != nil || before[filepath.ToSlash(rel)] || !strings.HasPrefix(filepath.ToSlash(rel), "testdata/morpheus/") {
			continue // not this run's, or not in the corpus
		}
		os.Remove(tr)
	}
}

// prune deletes t's stale entries and those whose replay passes, and lists
// them in t.Pruned.
func prune(dir string, t *TestSummary) {
	for _, st := range t.Stale {
		path, _, _ := strings.Cut(st, ": ")
		if removeEntry(dir, path) {
			t.Pruned = append(t.Pruned, path)
		}
	}
	for _, path := range t.Passed {
		if removeEntry(dir, path) {
			t.Pruned = append(t.Pruned, path)
		}
	}
	t.Stale, t.Passed = nil, nil
}

// removeEntry deletes a corpus entry (relative to dir) and the files kept
// beside it (its test output, TRACE.log).
func removeEntry(dir, path string) bool {
	p := filepath.Join(dir, path)
	if !strings.HasPrefix(filepath.ToSlash(filepath.Clean(path)), "testdata/morpheus/") || os.Remove(p) != nil {
		return false
	}
	side, _ := filepath.Glob(p + ".*")
	for _, s := range side {
		os.Remove(s)
	}
	return true
}

// readCorpusList reads the list listCorpus wrote.
func readCorpusList(file string) map[string]bool {
	data, _ := os.ReadFile(file)
	m := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			m[l] = true
		}
	}
	return m
}
