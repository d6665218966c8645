package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// prepareModule puts a writable copy of e's module in work/<n>/src and
// returns its directory and module path: fetched through the Go module
// proxy (go mod download) into the module cache, or copied from a local
// directory. A module without a go.mod gets one (go mod init, go mod tidy).
func prepareModule(e modEntry, work string, env []string) (dir, modPath string, err error) {
	src := e.Local
	if src == "" {
		out, err := runBounded(work, env, 10*time.Minute, "go", "mod", "download", "-json", e.Module+"@"+e.Version)
		var info struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
			return "", "", fmt.Errorf("go mod download %s@%s: %s", e.Module, e.Version, info.Error)
		}
		if err != nil {
			return "", "", fmt.Errorf("go mod download %s@%s: %v", e.Module, e.Version, err)
		}
		if info.Dir == "" {
			return "", "", fmt.Errorf("go mod download %s@%s: no directory in %q", e.Module, e.Version, out)
		}
		src = info.Dir
	}
	dir = filepath.Join(work, "src")
	if err := copyTree(src, dir); err != nil {
		return "", "", err
	}
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if errors.Is(err, fs.ErrNotExist) && e.Local == "" {
		if _, err := runBounded(dir, env, 2*time.Minute, "go", "mod", "init", e.Module); err != nil {
			return "", "", fmt.Errorf("go mod init %s: %v", e.Module, err)
		}
		if _, err := runBounded(dir, env, 10*time.Minute, "go", "mod", "tidy"); err != nil {
			return "", "", fmt.Errorf("go mod tidy in %s: %v", e.Module, err)
		}
		data, err = os.ReadFile(gomod)
	}
	if err != nil {
		return "", "", err
	}
	modPath = modulePathOf(data)
	if modPath == "" {
		return "", "", fmt.Errorf("%s: no module line", gomod)
	}
	return dir, modPath, nil
}

func modulePathOf(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// copyTree copies the regular files of src into dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// morpheusRun is one "morpheus test -json" over a module's packages, one
// process per package so that a hang is a package's, not the module's.
type morpheusRun struct {
	Records map[string]map[string]*testRecord // package -> test -> record
	PkgErr  map[string]string                 // package -> its error record ("" none)
	Hung    map[string]bool
	Elapsed time.Duration
}

// interruptGrace is how long a package's morpheus test may take, once
// interrupted at its time-out, to stop its tests and print their records.
const interruptGrace = time.Minute

// runMorpheus runs "morpheus test -json" at its defaults on each package
// in dir, with the given rewrite cache, each bounded by timeout.
func runMorpheus(self, dir, cache string, pkgs []string, env []string, timeout time.Duration) *morpheusRun {
	m := &morpheusRun{Records: map[string]map[string]*testRecord{}, PkgErr: map[string]string{}, Hung: map[string]bool{}}
	start := time.Now()
	env = append(env[:len(env):len(env)], envReplayChild+"=1")
	for _, pkg := range pkgs {
		out, err := runBoundedGrace(dir, env, timeout, interruptGrace, self, "test", "-json", "-report=", "-cache", cache, pkg)
		if errors.Is(err, errTimedOut) {
			m.Hung[pkg] = true
		}
		recs := m.Records[pkg]
		if recs == nil {
			recs = map[string]*testRecord{}
			m.Records[pkg] = recs
		}
		eachTestRecord(out, func(r *testRecord) {
			switch {
			case r.Test == "" && r.Error != "":
				m.PkgErr[pkg] = r.Error
			case r.Test != "":
				recs[r.Test] = r
			}
		})
		if err != nil && !m.Hung[pkg] && len(recs) == 0 && m.PkgErr[pkg] == "" {
			// The tool failed before any record: its own error.
			m.PkgErr[pkg] = "morpheus test: " + err.Error()
		}
	}
	m.Elapsed = time.Since(start)
	return m
}

// Verdicts of a top-level test under morpheus test.
const (
	verdictPass    = "pass"
	verdictFail    = "fail"
	verdictCrash   = "crash"
	verdictBuild   = "build"
	verdictHang    = "hang"
	verdictSkip    = "skip"
	verdictMissing = "missing"
)

// testVerdict is one top-level test's outcome.
type testVerdict struct {
	Package string `json:"package"`
	Test    string `json:"test"`
	Verdict string `json:"verdict"`
	Kind    string `json:"kind,omitempty"`
	// Class of a failure: "bug" or "limit" (listed), "false" (not listed),
	// "agrees" (go test fails it too).
	Class    string `json:"class,omitempty"`
	Flag     string `json:"flag,omitempty"`
	Message  string `json:"message,omitempty"`
	Location string `json:"location,omitempty"`
	GoTest   string `json:"go_test"`
	// Replay: what replaying a failure with its printed command gave
	// ("same", or the other outcome); "" if it printed none.
	Replay string `json:"replay,omitempty"`
}

// isBuildError tells a package's build error from a run's.
func isBuildError(msg string) bool {
	return strings.HasPrefix(msg, "building the rewritten tests") || strings.HasPrefix(msg, "rewriting")
}

// verdicts gives each top-level test go test ran in g its verdict under m.
func verdicts(g *goTestRun, m *morpheusRun) []testVerdict {
	var out []testVerdict
	for _, pkg := range g.Order {
		gp := g.Pkgs[pkg]
		for _, name := range gp.Order {
			v := testVerdict{Package: pkg, Test: name, GoTest: gp.Tests[name]}
			r := m.Records[pkg][name]
			perr := m.PkgErr[pkg]
			switch {
			case r != nil && (r.Kind != "" || r.Failure != ""):
				v.Verdict, v.Kind, v.Location = verdictFail, r.Kind, r.Location
				v.Message = firstLine(strings.TrimSpace(r.Message))
				if v.Message == "" {
					v.Message = firstLine(strings.TrimSpace(r.Failure))
				}
				if v.Kind == "" {
					v.Kind = "unknown"
				}
			case r != nil && r.Interrupted:
				v.Verdict, v.Message = verdictHang, "running at the package's time-out"
			case r != nil && r.Skipped && v.GoTest == "skip":
				v.Verdict = verdictSkip
			case r != nil && r.Skipped:
				v.Verdict, v.Message = verdictMissing, "skipped under morpheus, not under go test"
			case r != nil:
				v.Verdict = verdictPass
			case m.Hung[pkg]:
				v.Verdict, v.Message = verdictHang, "not reached by the package's time-out"
			case perr != "" && isBuildError(perr):
				v.Verdict, v.Message = verdictBuild, buildErrorLine(perr)
			case perr != "":
				v.Verdict, v.Message = verdictCrash, crashLine(perr)
			default:
				v.Verdict = verdictMissing
			}
			out = append(out, v)
		}
	}
	return out
}

// buildErrorLine is the first line of a build error's output that names a
// file (the compiler's or vet's finding), else its first line.
func buildErrorLine(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, ".go:") {
			return l
		}
	}
	return firstLine(msg)
}

// crashLine is the first line of a crashed process's output that says
// why (a panic, a fatal error, a timeout), else the error's first line.
func crashLine(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"panic:", "fatal error:", "fatal:", "SIGSEGV", "FAIL:", "--- FAIL", "exit status"} {
			if strings.HasPrefix(l, p) || strings.Contains(l, p) && p == "panic:" {
				return l
			}
		}
	}
	return firstLine(msg)
}

// eachTestRecord calls f with every record of a `morpheus test -json`
// output, in order, skipping the lines that are not records.
func eachTestRecord(out []byte, f func(*testRecord)) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		r := &testRecord{}
		if json.Unmarshal(sc.Bytes(), r) == nil {
			f(r)
		}
	}
}
