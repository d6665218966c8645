package plural

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// countedNoun finds a count printed before a plural noun in a format string
// ("%d failures"), which reads "1 failures" when the count is 1: such
// messages use N instead.
var countedNoun = regexp.MustCompile(`%d (failures|iterations|schedules|runs|steps|traces|candidates|kernels|records|shards|partial orders|hits|tests)\b`)

// fixedPlural are the messages whose count is never 1, by construction.
var fixedPlural = map[string]string{
	"failuretrace.go: last %d steps":                             "reportTail, a constant",
	"cmd/morpheus/view.go: (%d shards merged)":                   "a merged record has two shards or more",
	"internal/results/merge.go: among %d records":                "merging groups two records or more",
	"internal/core/steplimit.go: limit (%d steps)":               "the step limit",
	"internal/core/steplimit.go: is %d steps":                    "the step limit",
	"internal/core/steplimit.go: last %d steps":                  "the step limit's window (busyWindow) or more",
	"internal/core/leak.go: running %d steps":                    "DrainSteps, a constant",
	"cmd/morpheus/internal/report/failure.go: of %d steps":       "only long traces are folded",
	"cmd/morpheus/replay.go: found %d traces":                    "an error for a directory without exactly one trace",
	"internal/results/merge.go: %#x, %d iterations":              "the iterations of two runs that differ",
	"bench/cmd/morpheus-bench/bench_sct_plain.go: its %d sched":  "a benchmark's internal check",
	"bench/cmd/morpheus-bench/bench_sct_plain.go: of %d sched":   "a benchmark's internal check",
	"bench/cmd/morpheus-bench/bench_sct_plain.go: of %d iter":    "a benchmark's internal check",
	"bench/cmd/morpheus-bench/bench_sct.go: of %d iter":          "a benchmark's internal check",
	"bench/internal/sct/run.go: of %d iter":                      "a benchmark's internal check",
	"internal/mtest/mtest.go: in %d iterations":                  "a test helper",
	"cmd/morpheus/fuzz.go: hits dropped":                         "printed only when some were",
	"bench/cmd/morpheus-bench/bench_goker_report.go: of %d kern": "GoKer has 103 kernels",
}

// TestNoCountedPlurals checks every Go file of the module (but tests and the
// few fixedPlural messages) for counts printed before plural nouns.
func TestNoCountedPlurals(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
	lines:
		for n, line := range strings.Split(string(src), "\n") {
			if !countedNoun.MatchString(line) {
				continue
			}
			for k := range fixedPlural {
				file, frag, _ := strings.Cut(k, ": ")
				if file == rel && strings.Contains(line, frag) {
					used[k] = true
					continue lines
				}
			}
			t.Errorf("%s:%d: a count before a plural noun reads \"1 ...s\" when it is 1: use plural.N (or list it in fixedPlural with the reason)\n\t%s", rel, n+1, strings.TrimSpace(line))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range fixedPlural {
		if !used[k] {
			t.Errorf("fixedPlural lists %q, which no longer matches: remove it", k)
		}
	}
}
