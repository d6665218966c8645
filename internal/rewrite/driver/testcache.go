package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/rt"
)

// Cached outcomes. A package's exploration is a function of its test binary,
// the settings the run gives its processes, its saved traces and what its
// tests read of the machine: every schedule's seed is fixed, so a second run
// of the same binary with the same settings explores the same schedules.
// As go test caches a package's result, a run records, next to the binary,
// the package's outcome under a key of its binary (sources.key) and
// settings (runSettings), with the inputs its tests consulted (Go's test
// log: the environment variables, files and directories they read,
// -test.testlogfile) and its corpus (the traces under testdata/morpheus,
// by name, size and time); a later run with the same key, whose inputs and
// corpus are still what they were, shows that outcome, each test marked
// cached, and runs nothing. Unlike go test it keeps failures too: the same
// schedules would fail the same way. It does not keep what depends on the
// machine rather than the schedules: a test that ran on the real network,
// a failure of the watchdog (uncontrolled-blocking), a package whose
// process failed outside control, an interrupted run; nor replays, shards,
// -prune or counting runs. Config.Rerun (morpheus test -count=1) runs
// again regardless.

// EnvCacheDebug, set to 1, makes the driver say on standard error why a
// package's outcome was not kept or not used.
const EnvCacheDebug = "MORPHEUS_CACHE_DEBUG"

func cacheDebug(p *PackageSummary, format string, args ...any) {
	if os.Getenv(EnvCacheDebug) == "1" {
		fmt.Fprintf(os.Stderr, "morpheus: cache: %s: %s\n", p.Path, fmt.Sprintf(format, args...))
	}
}

// cachedOutcome is what the cache keeps of a package's run.
type cachedOutcome struct {
	Key     string            `json:"key"`
	Log     string            `json:"log"`    // the processes' test logs, merged
	Inputs  string            `json:"inputs"` // the hash of what the log names, as it was after the run
	Corpus  string            `json:"corpus"` // corpusDigest after the run
	Tests   []*TestSummary    `json:"tests"`
	Checks  []*results.Record `json:"checks,omitempty"`
	Elapsed time.Duration     `json:"elapsed"`
	// For a later run after an edit of function bodies (impact.go): the
	// hashes of the package's own declarations (declTable) and, by test,
	// the package's functions it executed, of the tests whose every
	// process had marks.
	Decls map[string]string   `json:"decls,omitempty"`
	Funcs map[string][]string `json:"funcs,omitempty"`
}

// testLogMagic starts the test log a test binary writes.
const testLogMagic = "# test log\n"

// inputCutoff: an input changed this shortly before the run ended may
// have changed again within its clock's resolution.
const inputCutoff = 2 * time.Second

// maxHashedInput is the largest input file hashed by content; a larger one
// (a saved trace of a long schedule) counts by size and time.
const maxHashedInput = 8 << 20

// cacheable reports whether cfg's runs may use and keep cached outcomes.
func (cfg Config) cacheable() bool {
	return !cfg.Rerun && cfg.Replay == "" && cfg.Shard.N <= 1 && !cfg.Prune && !cfg.Count && !cfg.BuildOnly
}

// outcomeFile is where p's cached outcome under key lives.
func outcomeFile(p *PackageSummary, key string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(p.Binary)), "outcomes", key[:32]+".json")
}

// outcomeKey is the key of p's run under cfg: its binary's and the
// settings', "" when its binary's is unknown.
func outcomeKey(cfg Config, p *PackageSummary) string { return outcomeKeyOf(cfg, p, p.key) }

// outcomeKeyOf is outcomeKey with the binary's key bin.
func outcomeKeyOf(cfg Config, p *PackageSummary, bin string) string {
	if bin == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "binary %s\x00run %q\x00jobs %d\x00race %v\x00", bin, cfg.Run, max(cfg.Jobs, 1), cfg.Race)
	for _, e := range runSettings(cfg, p) {
		fmt.Fprintf(h, "env %s\x00", e)
	}
	base := cfg.Env
	if base == nil {
		base = os.Environ()
	}
	for _, e := range base {
		// The progress file is the run's own, not a setting, and the
		// cache's debugging says why, changing nothing.
		if strings.HasPrefix(e, "MORPHEUS_") && !strings.HasPrefix(e, rt.EnvProgress+"=") && !strings.HasPrefix(e, EnvCacheDebug+"=") {
			fmt.Fprintf(h, "base %s\x00", e)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cachedRun fills p from its cached outcome and reports whether there was
// one still valid.
func cachedRun(cfg Config, p *PackageSummary) bool {
	if !cfg.cacheable() || p.Binary == "" || p.Err != nil {
		return false
	}
	key := outcomeKey(cfg, p)
	if key == "" {
		return false
	}
	data, err := os.ReadFile(outcomeFile(p, key))
	if err != nil {
		cacheDebug(p, "no outcome kept for these settings and binary")
		return false
	}
	var o cachedOutcome
	if json.Unmarshal(data, &o) != nil || o.Key != key {
		cacheDebug(p, "the kept outcome does not decode")
		return false
	}
	if c, ok := corpusDigest(p.dir); !ok || c != o.Corpus {
		cacheDebug(p, "its saved traces changed")
		return false
	}
	if in, why := inputsDigest(cfg, p.dir, o.Log, time.Time{}); why != "" || in != o.Inputs {
		cacheDebug(p, "an input its tests read changed %s", why)
		return false
	}
	p.shown = shownDir(cfg, p.dir)
	p.hintDir, p.hintReplay = cfg.Dir, cfg.Replay
	p.Tests, p.Checks, p.Elapsed, p.Cached = o.Tests, o.Checks, o.Elapsed, true
	for _, t := range p.Tests {
		t.Cached = true
		if cfg.Finished != nil {
			cfg.Finished(p, t)
		}
	}
	return true
}

// keepOutcome records p's outcome of the run that just ended, with the
// test logs its processes wrote (but for the files of the run's own
// temporary directory tmp: its processes' records), when it is one a later
// run may show. Of a run of the tests an edit may have changed (impact.go)
// it only takes the logs: runEdited keeps the whole outcome.
func keepOutcome(cfg Config, p *PackageSummary, tmp string, logs []string) {
	if p.edited != nil {
		p.edited.log, p.edited.logged = mergedLogs(p, tmp, logs)
		return
	}
	if !keepable(cfg, p) || len(logs) == 0 {
		return
	}
	if log, ok := mergedLogs(p, tmp, logs); ok {
		keepLogged(cfg, p, log)
	}
}

// keepable reports whether p's outcome under cfg may be kept.
func keepable(cfg Config, p *PackageSummary) bool {
	if !cfg.cacheable() || p.Err != nil || p.Cached || interrupted(p) {
		return false
	}
	for _, t := range p.Tests {
		if t.Real != "" || t.Kind == "uncontrolled-blocking" || t.Kind == "real" {
			cacheDebug(p, "not kept: %s depends on the machine (real network or watchdog)", t.Name)
			return false
		}
	}
	return true
}

// mergedLogs returns the test logs of p's processes as one, without the
// files under tmp, and whether every process wrote one.
func mergedLogs(p *PackageSummary, tmp string, logs []string) (string, bool) {
	var merged strings.Builder
	for _, l := range logs {
		data, err := os.ReadFile(l)
		if err != nil || !bytes.HasPrefix(data, []byte(testLogMagic)) {
			cacheDebug(p, "not kept: a process wrote no test log")
			return "", false // a process that did not get as far as its tests
		}
		for _, line := range strings.SplitAfter(string(data[len(testLogMagic):]), "\n") {
			if _, name, _ := strings.Cut(line, " "); !strings.HasPrefix(name, tmp+string(filepath.Separator)) {
				merged.WriteString(line)
			}
		}
	}
	return merged.String(), true
}

// keepLogged records p's outcome, whose tests' merged log is log.
func keepLogged(cfg Config, p *PackageSummary, log string) {
	key := outcomeKey(cfg, p)
	if key == "" {
		cacheDebug(p, "not kept: its binary's sources are not known")
		return
	}
	in, why := inputsDigest(cfg, p.dir, log, time.Now())
	if why != "" {
		cacheDebug(p, "not kept: %s", why)
		return
	}
	c, ok := corpusDigest(p.dir)
	if !ok {
		return
	}
	o := cachedOutcome{Key: key, Log: log, Inputs: in, Corpus: c, Tests: p.Tests, Checks: p.Checks, Elapsed: p.Elapsed}
	writeOutcome(outcomeFile(p, key), o)
	keepForEdits(cfg, p, o)
}

// writeOutcome writes o to file, whole or not at all.
func writeOutcome(file string, o cachedOutcome) {
	data, err := json.Marshal(o)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	part := file + ".tmp"
	if os.WriteFile(part, data, 0o644) == nil {
		os.Rename(part, file)
	}
}

// inputsDigest hashes, as they are now, the inputs the test log names (its
// lines "getenv NAME", "chdir DIR", "stat PATH", "open PATH", paths
// relative to the package's directory dir or the last chdir) inside the
// package's module (moduleRoot). morpheus's own settings (MORPHEUS_
// variables) are in the key.
// With ended set (the run ended then), an input changed within
// inputCutoff before it makes the outcome unsafe to keep. why says what
// stands in the way, "" for nothing.
func inputsDigest(cfg Config, dir, log string, ended time.Time) (digest, why string) {
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	lookup := func(name string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
				return v, true
			}
		}
		return "", false
	}
	h := sha256.New()
	v, ok := lookup("GODEBUG")
	fmt.Fprintf(h, "env GODEBUG %v %q\n", ok, v)
	lines := strings.Split(log, "\n")
	seen := map[string]bool{}
	pwd, root := dir, moduleRoot(dir)
	for _, line := range lines {
		if line == "" || seen[line] && !strings.HasPrefix(line, "chdir ") {
			continue
		}
		seen[line] = true
		op, name, found := strings.Cut(line, " ")
		if !found {
			return "", "a malformed test log line " + strconv.Quote(line)
		}
		switch op {
		case "getenv":
			if strings.HasPrefix(name, "MORPHEUS_") {
				continue
			}
			v, ok := lookup(name)
			fmt.Fprintf(h, "env %s %v %q\n", name, ok, v)
		case "chdir":
			pwd = name
			fmt.Fprintf(h, "chdir %s\n", name)
		case "stat", "open":
			if !filepath.IsAbs(name) {
				name = filepath.Join(pwd, name)
			}
			if name != root && !strings.HasPrefix(name, root+string(filepath.Separator)) {
				continue
			}
			sum, ok := hashInput(name, op == "open", ended)
			if !ok {
				return "", name + " changed during the run"
			}
			fmt.Fprintf(h, "%s %s %s\n", op, name, sum)
		default:
			return "", "a malformed test log line " + strconv.Quote(line)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), ""
}

// moduleRoot is the directory of the go.mod above dir (dir itself if
// none): as go test, the cache rechecks only the files of the module the
// tests are in, not the machine's own (/proc, /etc) or the run's temporary
// files (its processes' records, its progress file, t.TempDir's).
func moduleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// hashInput hashes one input: a missing file as missing, a directory by
// its listing (opened) or mode (stat), a regular file opened by its content
// (up to maxHashedInput), else by size, mode and time. With ended set, a
// file read but known by its time (too large to hash) whose time is
// within inputCutoff of it is too new (false), as go test judges one.
func hashInput(name string, opened bool, ended time.Time) (string, bool) {
	fi, err := os.Stat(name)
	if err != nil {
		return "missing", true
	}
	byContent := opened && fi.Mode().IsRegular() && fi.Size() <= maxHashedInput
	if !ended.IsZero() && opened && fi.Mode().IsRegular() && !byContent && fi.ModTime().After(ended.Add(-inputCutoff)) {
		return "", false
	}
	switch {
	case fi.IsDir() && opened:
		ents, err := os.ReadDir(name)
		if err != nil {
			return "unreadable", true
		}
		h := sha256.New()
		for _, e := range ents {
			fmt.Fprintf(h, "%s %v\n", e.Name(), e.Type())
		}
		return hex.EncodeToString(h.Sum(nil)), true
	case byContent:
		f, err := os.Open(name)
		if err != nil {
			return "unreadable", true
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return "unreadable", true
		}
		return hex.EncodeToString(h.Sum(nil)), true
	case fi.IsDir():
		return fmt.Sprintf("dir %v", fi.Mode()), true
	}
	return fmt.Sprintf("%d %v %d", fi.Size(), fi.Mode(), fi.ModTime().UnixNano()), true
}

// corpusDigest hashes the saved traces of the package in dir (by name,
// size and time): the run replays each, so another set is another run.
func corpusDigest(dir string) (string, bool) {
	root := filepath.Join(dir, "testdata", "morpheus")
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		lines = append(lines, fmt.Sprintf("%s %d %d", filepath.ToSlash(rel), fi.Size(), fi.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		return "", false
	}
	slices.Sort(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:]), true
}
