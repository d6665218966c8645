package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/plural"
)

// morpheus bench modules: the real-world suite. Each module of the suite
// file is fetched at its pinned version through the Go module proxy into a
// temporary directory, its tests run under go test, go test -race and
// morpheus test at defaults (cold and warm rewrite cache), and every
// top-level test go test runs gets one verdict under morpheus. Failures are
// judged against the expectations file.

//go:embed benchdata/modules.txt
var defaultModuleSuite []byte

//go:embed benchdata/modules-expect.txt
var defaultModuleExpect []byte

func init() {
	registerBench(&command{
		name:    "modules",
		summary: "run real Go modules' tests under go test, -race and morpheus test; verdicts per test",
		run:     runBenchModules,
	})
}

const benchModulesUsage = `Usage: morpheus bench modules [flags]

Fetches each module of the suite at its pinned version through the Go
module proxy into a temporary directory, copies it (writable: the corpus
goes beside its packages) and runs its tests: go test -json, go test -race,
then morpheus test -json at defaults on each package with tests, twice (a
fresh rewrite cache, then warm: nothing changed, so a package whose
outcome morpheus test kept is shown from its cache, as go test's would
be), then after one-line edits (below). Every
top-level test go test runs gets one verdict under morpheus: pass, fail
(its kind), crash (the test process died before its record), build (the
rewritten package did not build), hang (the package's run passed
-timeout), skip (skipped under go test too) or missing.
The go test outputs and each cold run's records are kept with -work.
A failure listed in the expectations file as a real bug is trusted, one
listed as a limitation is not a false alarm, any other is a false alarm.
Right after the cold run, each failure whose report prints a replay
command ("replay: morpheus test -replay ...") is replayed with that command
from the module's directory; the line after the table counts those that
failed again with the same kind at the same line, -v shows each outcome
("[replay: same]") and -json has replays and replayed per module.

Columns: tests go test runs (top-level Test functions run by go test or go
test -race: a test process that dies in one run does not reach the tests
after it); the verdicts; verdict (tests with a verdict,
% of tests); trusted (pass, skip or listed real bug, % of verdicts); false
alarms (a failure of a test plain go test failed too in the same run is
neither); wall times of go test, go test -race, morpheus cold and warm;
then the edit–rerun loop, each after a one-line edit of its own (a
"var _ = N" line appended to the first non-test Go file of the module's
root package, else of the first package with tests and such a file; put
back afterwards): edit (morpheus test of every package, as warm), edit pkg
(morpheus test of the edited package) and -race pkg (go test -race
-count=1 of it); then body pkg: morpheus test of the edited package after
a line ("_ = N") added at the start of the body of the file's first
function with a body of several lines, on top of the last edit, an edit
of a body alone (a test that executed no changed function keeps its
outcome). -json's records name the package, file and function edited
(edit_package, edit_file, edit_body_func) and the times (edit_seconds,
edit_package_seconds, edit_race_seconds, edit_body_package_seconds);
edit_error and edit_body_error say why no edit was made.

Flags:
  -suite FILE    the suite: "MODULE VERSION PACKAGES [NOTES]" a line; a
                 MODULE starting with ./ or / is a local directory (VERSION -)
                 (default: the suite built into morpheus)
  -expect FILE   the expectations: "MODULE PACKAGE TEST KIND bug EVIDENCE" or
                 "MODULE PACKAGE TEST KIND limit FLAG NOTE" a line
                 (default: built in, or none with -suite)
  -modules LIST  comma-separated modules to run (a path or its last elements)
  -timeout D     time-out of each package's morpheus test run (default 10m):
                 past it, the run is interrupted and the tests it did not
                 finish count as hangs; go test's -timeout is three times it
  -work DIR      keep the modules' copies, caches and outputs in DIR
  -json          one JSON record per module, then the total
  -v             list every test that got no pass, with its verdict
`

func runBenchModules(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench modules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchModulesUsage) }
	suiteFile := fs.String("suite", "", "")
	expectFile := fs.String("expect", "", "")
	only := fs.String("modules", "", "")
	timeout := fs.Duration("timeout", 10*time.Minute, "")
	work := fs.String("work", "", "")
	asJSON := fs.Bool("json", false, "")
	verbose := fs.Bool("v", false, "")
	save := fs.String("save", "", "")
	from := fs.String("from", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(stderr, "morpheus bench modules: "+format+"\n", a...)
		return errUsage
	}
	if fs.NArg() > 0 {
		return usage("unexpected arguments %q", fs.Args())
	}
	if *timeout <= 0 {
		return usage("-timeout must be positive")
	}
	suite, expect, err := loadModuleSuite(*suiteFile, *expectFile)
	if err != nil {
		return usage("%v", err)
	}
	if suite, err = selectModules(suite, *only); err != nil {
		return usage("%v", err)
	}
	var rows []*moduleRow
	if *from != "" {
		if rows, err = readModuleRows(strings.Split(*from, ","), suite, expect); err != nil {
			return err
		}
		if *save != "" {
			if err := saveModuleRows(*save, rows); err != nil {
				return err
			}
		}
	} else {
		// Each module's record is written as soon as it is measured:
		// a long run that is stopped keeps what it did.
		var encs []*json.Encoder
		if *asJSON {
			encs = append(encs, json.NewEncoder(stdout))
		}
		if *save != "" {
			f, err := os.Create(*save)
			if err != nil {
				return err
			}
			defer f.Close()
			encs = append(encs, json.NewEncoder(f))
		}
		emit := func(r *moduleRow) error {
			for _, enc := range encs {
				if err := enc.Encode(r); err != nil {
					return err
				}
			}
			return nil
		}
		if rows, err = benchModules(suite, expect, *work, *timeout, stderr, emit); err != nil {
			return err
		}
		if err := emit(totalRow(rows)); err != nil {
			return err
		}
		if *asJSON {
			return nil
		}
	}
	total := totalRow(rows)
	if *asJSON {
		return writeModuleRows(stdout, rows, total)
	}
	printModuleTable(stdout, rows, total)
	if *verbose {
		printModuleDetails(stdout, rows)
	}
	return nil
}

func saveModuleRows(file string, rows []*moduleRow) error {
	var b bytes.Buffer
	if err := writeModuleRows(&b, rows, totalRow(rows)); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}

func writeModuleRows(w io.Writer, rows []*moduleRow, total *moduleRow) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return enc.Encode(total)
}

// benchModules runs the suite's modules one after the other, in work (a
// temporary directory if "").
func benchModules(suite []modEntry, expect []expectation, work string, timeout time.Duration, stderr io.Writer, emit func(*moduleRow) error) ([]*moduleRow, error) {
	self, err := morpheusExecutable()
	if err != nil {
		return nil, err
	}
	root := work
	if root == "" {
		if root, err = os.MkdirTemp("", "morpheus-bench-modules-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(root)
	} else if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	env := benchEnv()
	var rows []*moduleRow
	for i, e := range suite {
		dir := filepath.Join(root, fmt.Sprintf("%02d-%s", i, strings.NewReplacer("/", "_", "@", "_").Replace(e.Name())))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "bench modules: %s %s ...\n", e.Name(), e.Version)
		row := benchOneModule(e, dir, self, env, timeout, expect)
		rows = append(rows, row)
		fmt.Fprintf(stderr, "bench modules: %s\n", row.progressLine())
		if err := emit(row); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// readModuleRows reads the module records of earlier runs (their totals
// are made again), keeps those of the suite's modules in the suite's order
// (a later file's record of a module replaces an earlier one's), and
// judges their failures again with expect.
func readModuleRows(files []string, suite []modEntry, expect []expectation) ([]*moduleRow, error) {
	byName := map[string]*moduleRow{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		for n := 1; ; n++ {
			r := &moduleRow{}
			if err := dec.Decode(r); err == io.EOF {
				break
			} else if err != nil {
				return nil, fmt.Errorf("%s: record %d: %v", file, n, err)
			}
			byName[r.Module] = r
		}
	}
	var rows []*moduleRow
	for _, e := range suite {
		if r, ok := byName[e.Name()]; ok {
			rows = append(rows, r.judgeAgain(e, expect))
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no records of the suite's modules", strings.Join(files, ", "))
	}
	return rows, nil
}

// judgeAgain counts r's verdicts again, its failures judged with expect:
// the details list every test but the passes and skips, which are counted.
func (r *moduleRow) judgeAgain(e modEntry, expect []expectation) *moduleRow {
	if r.ModPath == "" && e.Local == "" {
		r.ModPath = e.Module // a record of before module_path
	}
	out := &moduleRow{Module: r.Module, Version: r.Version, ModPath: r.ModPath, Error: r.Error, Tests: r.Tests,
		GoTestFailed: r.GoTestFailed, GoTestSecs: r.GoTestSecs, RaceFailed: r.RaceFailed, RaceFailures: r.RaceFailures,
		RaceSecs: r.RaceSecs, Packages: r.Packages, PackagesBuilt: r.PackagesBuilt, ColdSecs: r.ColdSecs,
		WarmSecs: r.WarmSecs, WarmHangs: r.WarmHangs, editTimes: r.editTimes, Failed: map[string]int{}}
	for _, v := range r.Details {
		v.Class, v.Flag = "", ""
		classify(&v, e, r.ModPath, expect)
		out.add(v)
	}
	out.Passed, out.Skipped = r.Passed, r.Skipped
	out.Verdict += r.Passed + r.Skipped
	out.Run += r.Passed + r.Skipped
	out.Trusted += r.Passed + r.Skipped
	return out
}

// loadModuleSuite reads the suite and expectations: the built-in ones, or
// the files given (with -suite alone, no expectations).
func loadModuleSuite(suiteFile, expectFile string) ([]modEntry, []expectation, error) {
	suiteData, suiteName, suiteDir := defaultModuleSuite, "benchdata/modules.txt", "."
	expectData, expectName := defaultModuleExpect, "benchdata/modules-expect.txt"
	if suiteFile != "" {
		b, err := os.ReadFile(suiteFile)
		if err != nil {
			return nil, nil, err
		}
		abs, err := filepath.Abs(suiteFile)
		if err != nil {
			return nil, nil, err
		}
		suiteData, suiteName, suiteDir = b, suiteFile, filepath.Dir(abs)
		expectData, expectName = nil, ""
	}
	if expectFile != "" {
		b, err := os.ReadFile(expectFile)
		if err != nil {
			return nil, nil, err
		}
		expectData, expectName = b, expectFile
	}
	suite, err := parseSuite(suiteName, suiteDir, bytes.NewReader(suiteData))
	if err != nil {
		return nil, nil, err
	}
	var expect []expectation
	if expectData != nil {
		if expect, err = parseExpectations(expectName, bytes.NewReader(expectData)); err != nil {
			return nil, nil, err
		}
	}
	return suite, expect, nil
}

// selectModules keeps the entries named in list (comma-separated): a
// module path, its last elements ("pond/v2", "yamux") or a local
// directory's name.
func selectModules(suite []modEntry, list string) ([]modEntry, error) {
	if list == "" {
		return suite, nil
	}
	var out []modEntry
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, e := range suite {
			if e.Module == name || e.Name() == name || strings.HasSuffix(e.Module, "/"+name) {
				out = append(out, e)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("-modules: no module %q in the suite", name)
		}
	}
	return out, nil
}

// moduleRow is one module's results: its line of the table and its JSON
// record.
type moduleRow struct {
	Module  string `json:"module"`
	Version string `json:"version,omitempty"`
	ModPath string `json:"module_path,omitempty"` // the go.mod's module path
	Error   string `json:"error,omitempty"`       // it could not be fetched or prepared

	Tests        int      `json:"tests"` // top-level tests go test runs
	GoTestFailed int      `json:"go_test_failed"`
	GoTestSecs   float64  `json:"go_test_seconds"`
	RaceFailed   int      `json:"race_failed"`
	RaceFailures []string `json:"race_failures,omitempty"`
	RaceSecs     float64  `json:"race_seconds"`

	Packages      int            `json:"packages"`       // packages with tests under go test
	PackagesBuilt int            `json:"packages_built"` // of them, built under morpheus
	Run           int            `json:"run"`            // tests with a record under morpheus
	Passed        int            `json:"passed"`
	Failed        map[string]int `json:"failed,omitempty"` // by kind
	Crashes       int            `json:"crashes"`
	Hangs         int            `json:"hangs"`
	Builds        int            `json:"build_errors"`
	Skipped       int            `json:"skipped"`
	Missing       int            `json:"missing"`
	ColdSecs      float64        `json:"cold_seconds"`
	WarmSecs      float64        `json:"warm_seconds"`
	WarmHangs     int            `json:"warm_hangs"` // packages that hung on the warm run (replaying the corpus)
	editTimes                    // after a one-line edit (bench_modules_edit.go)

	Verdict int `json:"verdict"`
	Trusted int `json:"trusted"`
	Bugs    int `json:"real_bugs"`
	// GoTestFails are failures of tests that plain go test failed too in
	// this run (on a busy machine, often its timing): neither trusted nor
	// false alarms.
	GoTestFails int `json:"go_test_fails_too"`
	Limits      int `json:"limitations"`
	FalseAlarms int `json:"false_alarms"`

	// Replays counts the failures whose report printed a replay command,
	// Replayed those whose replay with it failed the same way (kind and
	// line).
	Replays  int `json:"replays"`
	Replayed int `json:"replayed"`

	Details []testVerdict `json:"details,omitempty"` // every test without a pass
}

func benchOneModule(e modEntry, dir, self string, env []string, timeout time.Duration, expect []expectation) *moduleRow {
	row := &moduleRow{Module: e.Name(), Version: e.Version, Failed: map[string]int{}}
	if e.Local != "" {
		row.Version = ""
	}
	src, modPath, err := prepareModule(e, dir, env)
	if err != nil {
		row.Error = err.Error()
		return row
	}
	// go test gets a wider time-out: a test it does not reach is not
	// counted, and the slowest suites (raft's) take minutes on a busy
	// machine.
	g := goTestJSON(src, e.Packages, nil, env, 3*timeout, filepath.Join(dir, "go-test.json"))
	row.ModPath = modPath
	row.GoTestSecs = g.Elapsed.Seconds()
	row.GoTestFailed = len(g.Failed())
	race := goTestJSON(src, e.Packages, []string{"-race"}, env, 3*timeout, filepath.Join(dir, "go-test-race.json"))
	row.RaceFailures = race.Failed()
	row.RaceFailed, row.RaceSecs = len(row.RaceFailures), race.Elapsed.Seconds()
	// The tests go test runs: those of either run.
	g.union(race)
	row.Tests = g.Tests()

	cache := filepath.Join(dir, "cache")
	cold := runMorpheus(self, src, cache, g.Order, env, timeout)
	replays := replayFailures(self, src, cache, cold, env, timeout)
	warm := runMorpheus(self, src, cache, g.Order, env, timeout)
	row.ColdSecs, row.WarmSecs = cold.Elapsed.Seconds(), warm.Elapsed.Seconds()
	for _, p := range g.Order {
		if warm.Hung[p] {
			row.WarmHangs++
		}
	}
	row.editTimes = measureEdits(self, src, cache, modPath, g.Order, env, timeout)
	writeRunLog(filepath.Join(dir, "morpheus-cold.json"), cold)
	row.Packages = len(g.Order)
	for _, p := range g.Order {
		if !cold.Hung[p] && !isBuildError(cold.PkgErr[p]) && !strings.HasPrefix(cold.PkgErr[p], "morpheus test:") {
			row.PackagesBuilt++
		}
	}
	for _, v := range verdicts(g, cold) {
		if v.Verdict == verdictFail {
			v.Replay = replays[v.Package+" "+v.Test]
		}
		classify(&v, e, modPath, expect)
		row.add(v)
	}
	return row
}

// classify judges a failure: the expectations say whether it is a known
// real bug or a named limitation; else a test plain go test failed too
// "agrees" (counted apart), and any other is a false alarm.
func classify(v *testVerdict, e modEntry, modPath string, expect []expectation) {
	if v.Verdict != verdictFail {
		return
	}
	for _, x := range expect {
		if x.Module != e.Module && x.Module != e.Name() && x.Module != modPath {
			continue
		}
		if x.Test != v.Test || (x.Kind != "*" && x.Kind != v.Kind) || !x.pkgMatches(modPath, v.Package) {
			continue
		}
		v.Class, v.Flag = x.Class, x.Flag
		return
	}
	if v.GoTest == "fail" || v.GoTest == "run" {
		v.Class = "agrees"
		return
	}
	v.Class = "false"
}

func (r *moduleRow) add(v testVerdict) {
	switch v.Verdict {
	case verdictPass:
		r.Passed++
	case verdictFail:
		r.Failed[v.Kind]++
	case verdictCrash:
		r.Crashes++
	case verdictBuild:
		r.Builds++
	case verdictHang:
		r.Hangs++
	case verdictSkip:
		r.Skipped++
	case verdictMissing:
		r.Missing++
	}
	if v.Verdict == verdictPass || v.Verdict == verdictFail || v.Verdict == verdictSkip {
		r.Verdict++
		r.Run++
	}
	switch {
	case v.Verdict == verdictPass || v.Verdict == verdictSkip:
		r.Trusted++
	case v.Class == classBug:
		r.Trusted++
		r.Bugs++
	case v.Class == "agrees":
		r.GoTestFails++
	case v.Class == classLimit:
		r.Limits++
	case v.Class == "false":
		r.FalseAlarms++
	}
	if v.Replay != "" {
		r.Replays++
		if v.Replay == replaySame {
			r.Replayed++
		}
	}
	if v.Verdict != verdictPass && v.Verdict != verdictSkip {
		r.Details = append(r.Details, v)
	}
}

func (r *moduleRow) failures() int {
	n := 0
	for _, c := range r.Failed {
		n += c
	}
	return n
}

func (r *moduleRow) progressLine() string {
	if r.Error != "" {
		return r.Module + ": " + firstLine(r.Error)
	}
	return fmt.Sprintf("%s: %s, %d pass, %d fail, %d crash, %d build, %d hang; %d trusted, %s (go test %.0fs, -race %.0fs, morpheus %.0fs/%.0fs)",
		r.Module, plural.N(r.Tests, "test"), r.Passed, r.failures(), r.Crashes, r.Builds, r.Hangs, r.Trusted,
		plural.N(r.FalseAlarms, "false alarm"), r.GoTestSecs, r.RaceSecs, r.ColdSecs, r.WarmSecs)
}

func totalRow(rows []*moduleRow) *moduleRow {
	t := &moduleRow{Module: "total", Failed: map[string]int{}}
	for _, r := range rows {
		t.Tests += r.Tests
		t.GoTestFailed += r.GoTestFailed
		t.GoTestSecs += r.GoTestSecs
		t.RaceFailed += r.RaceFailed
		t.RaceSecs += r.RaceSecs
		t.Packages += r.Packages
		t.PackagesBuilt += r.PackagesBuilt
		t.Run += r.Run
		t.Passed += r.Passed
		for k, n := range r.Failed {
			t.Failed[k] += n
		}
		t.Crashes += r.Crashes
		t.Hangs += r.Hangs
		t.Builds += r.Builds
		t.Skipped += r.Skipped
		t.Missing += r.Missing
		t.ColdSecs += r.ColdSecs
		t.WarmSecs += r.WarmSecs
		t.WarmHangs += r.WarmHangs
		t.editTimes.add(r.editTimes)
		t.Verdict += r.Verdict
		t.Trusted += r.Trusted
		t.Bugs += r.Bugs
		t.Replays += r.Replays
		t.Replayed += r.Replayed
		t.Limits += r.Limits
		t.GoTestFails += r.GoTestFails
		t.FalseAlarms += r.FalseAlarms
	}
	return t
}

func pct(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%d%%", (n*100+d/2)/d)
}

func printModuleTable(w io.Writer, rows []*moduleRow, total *moduleRow) {
	fmt.Fprintf(w, "%-38s %5s %5s %4s %5s %5s %4s %4s %4s %-12s %-12s %5s %8s %8s %8s %8s %8s %8s %8s %8s\n",
		"module", "tests", "pass", "fail", "crash", "build", "hang", "skip", "miss",
		"verdict", "trusted", "false", "go test", "-race", "cold", "warm", "edit", "edit pkg", "body pkg", "-race pkg")
	line := func(r *moduleRow) {
		if r.Error != "" {
			fmt.Fprintf(w, "%-38s error: %s\n", r.Module, firstLine(r.Error))
			return
		}
		fmt.Fprintf(w, "%-38s %5d %5d %4d %5d %5d %4d %4d %4d %-12s %-12s %5d %8s %8s %8s %8s %8s %8s %8s %8s\n",
			r.Module, r.Tests, r.Passed, r.failures(), r.Crashes, r.Builds, r.Hangs, r.Skipped, r.Missing,
			fmt.Sprintf("%d (%s)", r.Verdict, pct(r.Verdict, r.Tests)),
			fmt.Sprintf("%d (%s)", r.Trusted, pct(r.Trusted, r.Verdict)),
			r.FalseAlarms, secs(r.GoTestSecs, r.GoTestFailed), secs(r.RaceSecs, r.RaceFailed),
			secs(r.ColdSecs, 0), secs(r.WarmSecs, 0), secs(r.EditAll, 0), secs(r.EditPkg, 0), secs(r.EditBodyPkg, 0), secs(r.EditRace, 0))
	}
	for _, r := range rows {
		line(r)
	}
	line(total)
	if len(total.Failed) > 0 {
		kinds := make([]string, 0, len(total.Failed))
		for k := range total.Failed {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = fmt.Sprintf("%s %d", k, total.Failed[k])
		}
		fmt.Fprintf(w, "failures by kind: %s; real bugs %d, limitations %d, false alarms %d, failing under go test too %d\n",
			strings.Join(parts, ", "), total.Bugs, total.Limits, total.FalseAlarms, total.GoTestFails)
	}
	if total.Replays > 0 {
		fmt.Fprintf(w, "replays: %d of %s replay with the command their report prints (same kind and line)\n",
			total.Replayed, plural.N(total.Replays, "failure"))
	}
	if total.GoTestFailed > 0 || total.RaceFailed > 0 || total.WarmHangs > 0 {
		fmt.Fprintf(w, "go test failed %s, go test -race %d; %s hung on the warm run\n",
			plural.N(total.GoTestFailed, "test"), total.RaceFailed, plural.N(total.WarmHangs, "package"))
	}
}

// secs is a wall time, with "!" and the count when that run failed tests.
func secs(s float64, failed int) string {
	t := fmt.Sprintf("%.1fs", s)
	if failed > 0 {
		t += fmt.Sprintf("!%d", failed)
	}
	return t
}

func printModuleDetails(w io.Writer, rows []*moduleRow) {
	for _, r := range rows {
		for _, v := range r.Details {
			what := v.Verdict
			if v.Kind != "" {
				what += "(" + v.Kind + ")"
			}
			if v.Class != "" {
				what += " " + v.Class
				if v.Flag != "" {
					what += " " + v.Flag
				}
			}
			fmt.Fprintf(w, "%s %s %s: %s", r.Module, v.Package, v.Test, what)
			if v.Location != "" {
				fmt.Fprintf(w, " at %s", v.Location)
			}
			if v.Message != "" {
				fmt.Fprintf(w, ": %s", v.Message)
			}
			if v.Replay != "" {
				fmt.Fprintf(w, " [replay: %s]", v.Replay)
			}
			fmt.Fprintln(w)
		}
		for _, f := range r.RaceFailures {
			fmt.Fprintf(w, "%s %s: fails under go test -race\n", r.Module, f)
		}
	}
}

// writeRunLog keeps a morpheus run's records and package errors for a
// look after the bench (-work).
func writeRunLog(path string, m *morpheusRun) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	pkgs := make([]string, 0, len(m.Records))
	for p := range m.Records {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if e := m.PkgErr[p]; e != "" {
			enc.Encode(testRecord{Package: p, Error: e})
		}
		if m.Hung[p] {
			enc.Encode(testRecord{Package: p, Error: "hung: killed after the time-out"})
		}
		names := make([]string, 0, len(m.Records[p]))
		for n := range m.Records[p] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			enc.Encode(m.Records[p][n])
		}
	}
}
