package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// morpheus test (rewrite mode, the default) runs the ordinary go tests of
// packages that know nothing of morpheus, rewritten at build time onto the
// controlled runtime (the same driver as morpheus rewrite), with morpheus
// test's flag names; tests that call morpheus.Check run as they are (see
// test_checks.go).

const testRewriteUsage = `Usage: morpheus test [flags] PACKAGES

Runs the packages' tests under morpheus without changing a file. Ordinary
tests (func TestX(t *testing.T)) are rewritten onto the controlled runtime:
the packages, their tests and their non-standard dependencies are rewritten
in a cache directory, the test binary is built once and run in -jobs
processes, each exploring its share of every test's schedules. A test that
uses morpheus itself (morpheus.Check, morpheus.Explore) runs as it is: its
Check explores, shows its progress, and gets its result record and HTML
report as under -rewrite=false; the go statements and channels of the code
it runs are still controlled. A rewritten test's failing traces are kept in
its package's testdata/morpheus/<Test>/ and replayed first by the next run,
as a Check's are; a test's t.Errorf/t.Fatalf message is its failure's (also
through an assertion library's interface, as testify's), and stacks show
your frames only (MORPHEUS_STACKS=1: all of them). A test's own goroutine
listings (goleak, runtime.NumGoroutine) show its goroutines, not
morpheus's, and a child process it starts does not inherit the driver's
settings. net/http, httptest and the standard packages that import them
are rewritten copies (the shadow standard library, built into the cache
by the first run whose tests link net/http: a minute or two, once per
morpheus binary), so tests that serve and call HTTP run under control;
MORPHEUS_SHADOW=0 in the environment keeps the standard library's, and
such tests run once on the real network. Every line
of the summary names its package; HTML reports go to
DIR/<package path>/<Test>.html. See docs/rewriting.md. Exits 1 if a test
fails. A rewritten test that runs long shows its progress (schedules so
far, failures, rate): on a terminal after a second, elsewhere a line every
10 s of its time. A first ^C is passed on to the test processes, which stop
exploring and report what ran; the summary follows (tests and packages
that had not started listed as not run, no failure) and morpheus test
exits 130. A second ^C kills them at once.

Budget: by default each rewritten test gets 100 schedules (split over the
-jobs processes), and a process explores it for at most max(1s, 3 x
its first schedule's time): a schedule starts only if, taking as long
as its schedules so far did on average, it ends by then; and a test
ends within a minute in each process (or once the process's heap has
grown by 2 GiB): the schedule running then is cut (neither passed nor
failed, not counted), so a test whose single schedule takes minutes gets
its verdict from the schedules that completed and the package's later
tests run. -iterations or -duration
replaces this (MORPHEUS_RT_BUDGET=FLOOR,FACTOR,LIMIT, as 1s,3,1m, or off
in the environment changes it). Time decides only how many schedules run
and whether the last completes, never what a schedule does. The summary
(and -json's "stopped") says per test how many schedules it got and why
it stopped: budget-schedules (all it was given), budget-time, budget-cut
(the limit cut a schedule), failure, exhausted (a systematic strategy
explored every schedule) or interrupted.

Schedules and shards: schedule i of a test has the same seed in every run
(from the test's name, or -seed, and i alone). Of -jobs J processes,
process j runs the schedules whose number is j modulo J. With -shard i/N
(N machines, -results FILE on each, then morpheus merge of the files) the
N machines run the processes of one run with -jobs N*J, process q of a
package running the schedules whose number is q modulo N*J; they are cut
into N groups per package (group g: processes g+N*j), and of the P*N
groups of the P packages with tests, in import-path order, machine i
runs the i-th P, at most J processes at a time, and rewrites and builds
only those packages (about P/N+1 of them, and the packages they import;
with one package, machine i runs group i of it); -shard-spread S orders the groups by g modulo S first, so that
each package is spread over S machines. The merged summary, -json and
corpus are that run's (but for wall times) under a schedule budget; a
time budget counts per process, so N machines explore N times as long. A
test on the real network runs once, in process 0. See docs/scale-out.md.

Corpus: saved traces replay in the process that explores the test, one
schedule each, before its exploration; one that still fails is the test's
failure; one the code no longer follows is replayed again after the
exploration and, still diverging, listed as stale; one whose replay passes
is listed as fixed; neither stops the exploration. A failure found by
several processes is saved once, under the name the summary prints.

Cached outcomes: schedule i's seed is fixed, so a second run of the same
test binary with the same settings explores the same schedules. As go test
caches a package's result, morpheus test keeps each package's outcome next
to its binary, with what its tests read (environment variables, files,
directories: Go's test log) and its saved traces; a later run of the same
binary, settings, inputs and corpus shows it again, marked (cached), and
runs nothing. Failures are kept too (the same schedules fail the same way),
but not a test that ran on the real network, a failure of the watchdog, a
package whose process failed outside control or an interrupted run; -seed
random, -replay, -shard, -prune never use it. -count=1 runs again.
After an edit of function bodies alone (no type, var, const, import,
signature, init, file, test file or dependency changed, no function moved
to other lines), a test that passed and executed none of the changed
functions (each function of the module's packages marks its entry; a test
records those marked while it ran or before it) keeps its outcome, marked
(cached), and only the others run.

Flags:
  -iterations N   schedules per rewritten test over all processes
                  (alias -schedules; default: the budget below); 0:
                  unlimited, until a failure, -duration or ^C; when given,
                  also each Check's iterations (MORPHEUS_ITERATIONS)
  -duration D     time budget of each rewritten test in each process
                  (schedules unlimited unless -iterations says); when
                  given, also each Check's (MORPHEUS_DURATION)
  -strategy S     exploration strategy (default morpheus's)
  -seed N         base seed, or "random" (default: from each test's name)
  -jobs N         parallel test processes per package (default 2); each
                  runs its share of every test's schedules and every
                  Check's iterations; the first in the package's
                  directory, as go test, each other in a private copy of
                  it, so tests that write there do not meet
  -shard i/N      run part i of N of the run (above), for morpheus merge
  -shard-spread S spread each package over S of the N shards (default 1:
                  each on one, or two; N: every shard runs a 1/N share of
                  every package's schedules and builds them all), for a
                  package whose tests take most of the run
  -run REGEXP     run only the tests matching REGEXP
  -count 1        run every package again, even where its cached outcome
                  (above) would do
  -json           print one JSON record per test instead of the summary
                  (a Check's has "check":true), each as soon as every
                  process ran the test: in the order the tests run
                  (their order in the source), package after package by
                  import path; a package's error and its Checks' records
                  follow its tests
  -results FILE   write the run's result file, for morpheus merge, as it
                  goes: its settings and shard, each test's record and
                  its saved failing trace, each package's build and
                  error, the Checks' records (JSON lines); a run killed
                  half-way keeps what finished
  -report DIR     directory of the Checks' HTML reports (default
                  "morpheus-report"); "" writes none
  -race           build the tests with Go's race detector as well
  -vet LIST       go vet's checks run on each package as written before it
                  is built, as go test runs them: "off", "all", or a list of
                  analyzers (atomic,bool); default go test's own, with the
                  module's go version. A finding stops the package's build
  -replay TRACE   replay a saved trace (with -run naming its test)
  -corpus=false   neither replay nor save testdata/morpheus/<Test>/: a
                  failing test's trace goes to the cache directory
  -prune          delete the corpus entries of the tests that ran that are
                  stale or whose replay passes (the summary lists them)
  -C DIR          run the go command in DIR
  -exclude LIST   comma-separated import-path prefixes not to rewrite
  -cache DIR      cache directory for rewritten files and binaries (default
                  morpheus/rewrite in the user's cache directory; it grows
                  with every module and change rewritten: morpheus clean
                  removes it)
  -maxsteps N     step limit of a schedule (default 1000000): past it the schedule
                  runs on, fairly, to ten times it, and only there fails as step-limit
                  (a livelock, or one goroutine that polls alone; one that computes
                  alone, goroutines that compute side by side without polling or
                  answering each other back and forth, or goroutines that keep
                  resting on timers, run on to a hundred times it)
  -watchdog D     report a goroutine blocked outside control after D (5s;
                  time the machine starves the process counts up to 5×D),
                  in an exploration and in a replay (-replay, the corpus's)
  -allowleaks     goroutines still blocked after a test returned are no failure
  -allowraces     data races are no failure (the accesses stay scheduling points)
  -earlytimers N  times per schedule the nearest timer, sleep or time-out, if
                  at most 1 ms ahead, may fire while goroutines can still run
                  (default 0: never; -1, a portfolio: of every four schedules
                  two never, one up to 2 times, one up to 24)
  -epoch T        the instant every schedule's clock starts at, in RFC 3339
                  (default 2000-01-01T00:00:00Z): for code that works out dates
                  (a yearly cron job fires in the first second of a year);
                  recorded in the traces, whose replays start there
  -rewrite=false  run plain go test instead, controlling only the Checks
                  ("morpheus test -rewrite=false -h" for its flags)
`

// testRecord is one test's outcome under -json (results.TestRecord, which
// the benchmarks that run morpheus test read too).
type testRecord = results.TestRecord

func runTestRewrite(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, testRewriteUsage) }
	fs.Bool("rewrite", true, "")
	df := addDriverFlags(fs)
	asJSON := fs.Bool("json", false, "")
	keep := fs.String("results", "", "")
	report := fs.String("report", "morpheus-report", "")
	keepCorpus := fs.Bool("corpus", true, "")
	prune := fs.Bool("prune", false, "")
	shard := fs.String("shard", "", "")
	spread := fs.Int("shard-spread", 1, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := df.config("test", fs, stderr)
	if err != nil {
		return err
	}
	if *shard != "" {
		i, n, err := results.ParseShard(*shard)
		if err == nil && cfg.Replay != "" {
			err = errors.New("a replay runs one schedule: it takes no shard")
		}
		if err != nil {
			fmt.Fprintf(stderr, "morpheus test: -shard %q: %v\n", *shard, err)
			return errUsage
		}
		if err == nil && (*spread < 1 || *spread > n) {
			err = fmt.Errorf("-shard-spread %d: want 1 to %d", *spread, n)
		}
		if err != nil {
			fmt.Fprintf(stderr, "morpheus test: -shard %q: %v\n", *shard, err)
			return errUsage
		}
		cfg.Shard, cfg.ShardSpread = driver.Shard{I: i, N: n}, *spread
	} else if *spread != 1 {
		fmt.Fprintf(stderr, "morpheus test: -shard-spread without -shard\n")
		return errUsage
	}
	if df.randomSeed() && !*asJSON {
		fmt.Fprintf(stdout, "seed %d\n", cfg.Seed)
	}
	cfg.Corpus, cfg.Prune = *keepCorpus, *prune
	cfg.Env = append(os.Environ(), checkEnv(fs, cfg.Seed, cfg.Replay)...)
	progress := stdout
	if *asJSON {
		progress = stderr
	}
	// -json and -results are written as the run goes: a test's record as
	// soon as every process reported it, a package's error and Checks
	// once it ended.
	var rw *resultWriter
	if *keep != "" {
		f, err := os.Create(*keep)
		if err != nil {
			return err
		}
		defer f.Close()
		rw = &resultWriter{w: f}
		shardName := ""
		if cfg.Shard.N > 0 {
			shardName = *shard
		}
		rw.start(shardName, settingsOf(cfg))
	}
	enc := json.NewEncoder(stdout)
	var encErr error
	cfg.Finished = func(p *driver.PackageSummary, t *driver.TestSummary) {
		if rw != nil {
			rw.test(p, t)
		}
		if *asJSON && encErr == nil {
			encErr = enc.Encode(testRecordOf(p.Path, t))
		}
	}
	cfg.Done = func(p *driver.PackageSummary) {
		if rw != nil {
			rw.pkg(p)
		}
		if *asJSON {
			for _, r := range packageRecords(p) {
				if encErr == nil {
					encErr = enc.Encode(r)
				}
			}
		}
	}
	sum, err := runWithProgress(cfg, progress)
	if err != nil {
		return err
	}
	if rw != nil {
		rw.end()
		if rw.err != nil {
			return fmt.Errorf("-results: %v", rw.err)
		}
	}
	if encErr != nil {
		return encErr
	}
	if !*asJSON {
		explainDeadlocks(sum)
		printTestSummary(stdout, sum)
	}
	if err := finishChecks(stdout, sum, *report, *asJSON); err != nil {
		return err
	}
	if sum.Failed() {
		return fmt.Errorf("tests failed under control")
	}
	return nil
}

// writeTestRecords writes sum's -json records, each package's tests in
// order (its tests in the order given, by name where none is), then its
// error and its Checks'.
func writeTestRecords(w io.Writer, sum *driver.Summary, order map[string][]string) error {
	enc := json.NewEncoder(w)
	for _, p := range sum.Packages {
		byName := map[string]*driver.TestSummary{}
		for _, t := range p.Tests {
			byName[t.Name] = t
		}
		names := order[p.Path]
		if names == nil {
			for _, t := range p.Tests {
				names = append(names, t.Name)
			}
		}
		for _, n := range names {
			if err := enc.Encode(testRecordOf(p.Path, byName[n])); err != nil {
				return err
			}
		}
		for _, r := range packageRecords(p) {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return nil
}
