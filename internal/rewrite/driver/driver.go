package driver

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// Config says what to rewrite and how to run it.
type Config struct {
	Dir      string   // where the go command runs (in the user's module)
	Patterns []string // packages, as for go test
	Exclude  []string // import-path prefixes not to rewrite
	Cache    string   // cache root; default $XDG_CACHE_HOME/morpheus/rewrite
	Run      string   // -test.run regexp; default: every Test
	// Schedules per test over all processes: 0 is the default budget
	// (rt.DefaultSchedules, with the time budget scaled by each test's
	// first schedule, rt.EnvBudget), Unlimited none; a number or Duration
	// given turns the scaled budget off.
	Schedules int
	// Duration is a wall-clock budget per test in each process (rt.EnvDuration);
	// with it, Schedules 0 is unlimited.
	Duration  time.Duration
	Seed      uint64 // base seed; 0: from each test's name
	Strategy  string // default morpheus's
	Jobs      int    // parallel processes (default 2)
	Replay    string // a trace to replay instead of exploring
	Watchdog  time.Duration
	MaxSteps  int       // steps per schedule before a step-limit failure (0: morpheus's)
	Env       []string  // the environment of the go command and tests; nil: os.Environ
	Log       io.Writer // progress, may be nil
	BuildOnly bool      // rewrite and build, do not run
	Race      bool      // build the test binary with Go's race detector (go test -race)
	// AllowLeaks: goroutines still blocked after a test's body returned are
	// no failure (rt.EnvAllowLeaks in the environment of the tests).
	AllowLeaks bool
	// AllowRaces: data races are no failure (rt.EnvAllowRaces).
	AllowRaces bool
	// EarlyTimers is how many times per schedule the nearest timer may fire
	// while goroutines can run (rt.EnvEarlyTimers): 0 leaves rt's default
	// (rt.DefaultEarlyTimers, none), a negative number asks for the
	// portfolio (some schedules with early timers, see explore/early.go).
	EarlyTimers int
	// Epoch is the instant, in RFC 3339, every schedule's clock starts at
	// (rt.EnvEpoch); "" leaves rt's default, 2000-01-01T00:00:00Z.
	Epoch string
	// Count is counting mode (rt.EnvCount), for benchmarks: every test runs
	// all its schedules, and TestSummary.Hits counts the failing ones.
	Count bool
	// Corpus keeps the rewritten tests' failing traces as morpheus.Check
	// keeps its own, in testdata/morpheus/<Test>/ of their packages, and
	// replays them first (rt.EnvCorpus); morpheus test sets it. Without
	// it, traces go to the cache directory.
	Corpus bool
	// Rerun runs every package's tests even where a cached outcome of the
	// same binary, settings and inputs would do (testcache.go): morpheus
	// test -count=1.
	Rerun bool
	// Prune deletes, with Corpus, the saved traces of the tests that ran
	// that are stale (TestSummary.Stale) or whose replay passes
	// (TestSummary.Passed), and lists them in TestSummary.Pruned.
	Prune bool
	// Vet is go test's -vet: "" runs go test's default analyzers on each
	// package as written, with the module's own go.mod, before building it
	// (a finding stops its build, as under go test); "off" runs none, "all"
	// every analyzer of go vet, or a comma-separated list of analyzers.
	Vet string
	// Shard is the part of the run this machine runs (morpheus test
	// -shard): of every rewritten test the schedules whose number is
	// Shard.I modulo Shard.N, of every Check its iterations likewise; the
	// zero value runs them all. Its Jobs processes split that part again
	// (see runPackage), and the shards' summaries merge into the whole
	// run's (TestSummary.Merge).
	Shard Shard
	// ShardSpread is over how many shards each package's processes are
	// spread (shardpkgs.go): 0 or 1, each package on one shard (two at
	// most); Shard.N, every shard runs its share of every package.
	ShardSpread int
	// Finished, if set, is called with each test's outcome as soon as
	// every process of its package reported it (streaming: a run killed
	// later keeps it), in the order the test binary runs the tests (their
	// order in the source), one call at a time; Done, if set, with each
	// package once it ended (built and ran, or did not build), in the
	// order of their import paths, its Tests then sorted by name and its
	// Checks and Err final.
	Finished func(p *PackageSummary, t *TestSummary)
	Done     func(p *PackageSummary)
}

// Shard is part I of N (from 0) of a run.
type Shard struct{ I, N int }

// Unlimited is Config.Schedules for no limit: a test explores until a
// failure, its Duration or an interrupt.
const Unlimited = -1

// DefaultCache is the cache root when Config.Cache is empty: morpheus/rewrite
// in the user's cache directory (XDG_CACHE_HOME, ~/.cache on Linux), or in
// the temporary directory when there is none.
func DefaultCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "morpheus", "rewrite")
}

// cacheRoot is the cache root for Config.Cache: the default when empty,
// made absolute otherwise, since the test processes run in their packages'
// directories and read the binaries' and traces' paths recorded under it.
func cacheRoot(cache string) (string, error) {
	if cache == "" {
		cache = DefaultCache()
	}
	abs, err := filepath.Abs(cache)
	if err != nil {
		return "", fmt.Errorf("cache directory %s: %v", cache, err)
	}
	return abs, nil
}

// CacheEntries are the names a cache root holds: rewritten files, the
// modules' areas (overlays, test binaries, traces) and the links to the
// module cache.
var CacheEntries = []string{"files", "mod", "mods"}

// Summary is what a run found.
type Summary struct {
	Packages []*PackageSummary
}

// PackageSummary is one package's outcome.
type PackageSummary struct {
	Path    string
	Issues  []rewrite.Issue
	Binary  string        // the test binary, "" if none
	Build   time.Duration // rewrite and build time
	Elapsed time.Duration // wall time of the schedules
	Tests   []*TestSummary
	Output  string // the test processes' output when one failed outside morpheus
	Err     error  // the build or the run failed
	// Cached: its outcome is one an earlier run of the same test binary,
	// settings, inputs and corpus recorded (testcache.go); nothing ran.
	Cached bool
	// Checks are the records of the tests that call morpheus.Check, run
	// as they are (not wrapped): one per Check, the processes' shards
	// merged (see checks.go).
	Checks []*results.Record

	dir   string // where its tests run
	shown string // dir as the user names it (shownDir)
	key   string // what its binary was built from (sources.key)
	// frame and own are what an edit of function bodies alone leaves as
	// it was (impact.go): the key of the binary's files but the package's
	// own rewritten ones, and those (original -> rewritten).
	frame string
	own   map[string]string
	// edited, during a run of the tests an edit may have changed, is what
	// an earlier run left of the others (impact.go).
	edited *editRun
	// groups are the groups of its processes this shard runs
	// (shardpkgs.go); nil without a shard: Config.Shard's, all of them.
	groups []int

	// hintDir and hintReplay are Config.Dir and Config.Replay, for the
	// replay commands of the Checks (ReplayCommand).
	hintDir, hintReplay string

	procPhases string // with EnvPhases, where its test processes' time went
}

// Dir is the directory the package's tests run in, "" if it was not built.
func (p *PackageSummary) Dir() string { return p.dir }

// TestSummary is one test's outcome over all processes.
type TestSummary struct {
	Name        string
	Schedules   int
	Steps       int64
	Skipped     bool
	Failure     string // morpheus's report of the first failing schedule
	Kind        string
	Task        string // the failing task
	Location    string
	Message     string   // the failure's message
	Trace       string   // its trace file
	Log         string   // the output of the process that failed it, saved as Trace+".log", when the report says its message is there
	Stale       []string // saved traces (Config.Corpus) the test no longer follows, "PATH: where the run left it"
	Passed      []string // saved traces whose replay passes: the bug they recorded is fixed
	Pruned      []string // saved traces Config.Prune deleted
	Foreign     []string
	Hits        int  // failing schedules, with Config.Count
	Interrupted bool // a SIGINT or SIGTERM stopped it before its schedules ran (rt.Result.Interrupted)
	// Stopped says why its exploration stopped (rt.StopFailure, …), over
	// its processes: a failure, else an interrupt, else exhausted, else the
	// time budget of any process, else the schedules asked for.
	Stopped string
	// Elapsed is the longest time one of its processes explored it.
	Elapsed time.Duration
	// Real: the test ran once on the real network and real time, not
	// under control, because it reaches what this names (rt.RealTest).
	Real string
	// Schedule is the number of the failing schedule (the lowest of its
	// processes'), -1 for a saved trace that still fails.
	Schedule int
	// Cached: the outcome of an earlier run, shown again (PackageSummary.Cached).
	Cached bool `json:"-"`
	// History, of a replay that diverged alone, says what it re-ran of
	// the recording process's history before replaying again, and where
	// the replay alone diverged (replayhistory.go).
	History string

	proc int // the process whose record holds the failure
	// funcs are the functions the test executed (rt.Result.Funcs), known
	// if marked: every process's code had marks.
	funcs  []string
	marked bool
}

// Failed reports whether any test failed.
func (s *Summary) Failed() bool {
	for _, p := range s.Packages {
		if p.Err != nil && p.Err != ErrNotRun {
			return true
		}
		for _, t := range p.Tests {
			if t.Failure != "" {
				return true
			}
		}
		if anyCheckFailed(p.Checks) {
			return true
		}
	}
	return false
}

// Schedules returns the schedules a package ran, its rewritten tests' and
// its Checks' iterations (a package of Checks alone ran no rewritten
// schedule), and their rate per second.
func (p *PackageSummary) Schedules() (int, float64) {
	n := 0
	for _, t := range p.Tests {
		n += t.Schedules
	}
	for _, r := range p.Checks {
		n += r.Iterations
	}
	if p.Elapsed <= 0 {
		return n, 0
	}
	return n, float64(n) / p.Elapsed.Seconds()
}

func (c *Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", args...)
	}
}

// Prepare rewrites the packages and builds their test binaries.
func Prepare(ctx context.Context, cfg Config) ([]*PackageSummary, error) {
	start := time.Now()
	ph := newPhases("prepare")
	defer ph.print()
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	vet, err := parseVet(cfg.Vet)
	if err != nil {
		return nil, err
	}
	if err := checkVetNames(ctx, cfg.Dir, env, vet); err != nil {
		return nil, err
	}
	// One go env for the four: each go command costs a start.
	goenv, err := goEnvs(ctx, cfg.Dir, env, "GOWORK", "GOMOD", "GOMODCACHE", "GOVERSION")
	if w := goenv["GOWORK"]; w != "" && w != "off" {
		return nil, fmt.Errorf("workspace mode (%s) is not supported: run with GOWORK=off", w)
	}
	gomod := goenv["GOMOD"]
	if err != nil || gomod == "" || gomod == os.DevNull {
		return nil, fmt.Errorf("%s is not in a module (go env GOMOD: %q)", cfg.Dir, gomod)
	}
	modcache, goVer := goenv["GOMODCACHE"], goenv["GOVERSION"]
	ph.done("go env")
	cache, err := cacheRoot(cfg.Cache)
	if err != nil {
		return nil, err
	}
	ws := &workspace{cache: cache, dir: filepath.Join(cache, "mod", hashKey(gomod, nil, goVer)),
		modcache: modcache, goVer: goVer, overlay: map[string]string{}, links: map[string]string{},
		orig: map[string]string{}, replaced: map[string]string{}}
	record := preparedFile(ws.dir, cfg)
	// A shard builds its packages only (shardpkgs.go); own is nil without
	// a shard: every package, every group.
	var own map[string][]int
	var targets map[string]string
	if cfg.Shard.N > 1 {
		var tested map[string]bool
		if targets, tested, err = listTargets(ctx, cfg, env); err != nil {
			return nil, err
		}
		own = shardPackages(targets, tested, cfg.Shard, cfg.ShardSpread)
		ph.done("go list (the shard's packages)")
	}
	fp, srcs, err := fingerprint(ctx, cfg, env, gomod, goVer)
	ph.done("fingerprint")
	if err != nil {
		cfg.logf("morpheus: %v: rewriting and building anew", err)
		srcs = nil
	} else if out := reusePrepared(record, fp); out != nil {
		cfg.logf("morpheus: nothing changed since the last build: reusing its test binaries")
		for _, ps := range out {
			ps.Build = time.Since(start)
			if own != nil {
				ps.groups = own[ps.Path]
			}
		}
		return out, nil
	}
	// go test's vet of every package, while they load and are rewritten.
	vetCfg := cfg
	var only []string
	if own != nil {
		only = ownPaths(own)
		vetCfg.Patterns = only
	}
	vetAll := startVet(ctx, vetCfg, env, vet)
	defer vetAll() // the go command has ended when Prepare returns
	// A shard loads and rewrites its packages' closure only (the
	// rewrite's loadonly.go).
	// The shadow standard library, unless turned off or not needed
	// (shadow.go); without it, or when it does not build, net/http is the
	// standard library's.
	var shadowMap map[string]string
	if shadowOn(env) && shadowNeeded(srcs) {
		s, err := prepareShadow(ctx, cache, cfg.Dir, goVer, env)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			cfg.logf("morpheus: %s: net/http stays the standard library's (tests that use it run on the real network): %v", shadowEnv, err)
		default:
			shadowMap, ws.shadow = s.Map, s.Dir
		}
		ph.done("shadow standard library")
	}
	pkgs, err := rewrite.Load(rewrite.LoadConfig{Dir: cfg.Dir, Patterns: cfg.Patterns, Env: env,
		Exclude: cfg.Exclude, Relocated: modcache, Only: only, Shadow: shadowMap, Marks: true})
	if err != nil {
		return nil, err
	}
	ph.done("load and rewrite")
	for _, p := range pkgs {
		for _, f := range p.Files {
			if f.Changed {
				if err := ws.place(p, f); err != nil {
					return nil, err
				}
			}
		}
	}
	overlay, err := ws.writeOverlay()
	if err != nil {
		return nil, err
	}
	ph.done("overlay written")
	alt, err := ws.altGoMod(ctx, gomod, env)
	if err != nil {
		return nil, err
	}
	if targets == nil {
		if targets, _, err = listTargets(ctx, cfg, env); err != nil {
			return nil, err
		}
	}
	ph.done("alternate go.mod, go list")
	before := builtBefore(record)
	if vetAll() {
		vet.off = true // every package passed
	}
	ph.done("vet (waited for)")
	var out []*PackageSummary
	for _, p := range withUnrewritten(pkgs, targets) {
		dir, ok := targets[p.Path]
		if !ok {
			continue // a dependency: rewritten, not tested
		}
		groups, mine := own[p.Path]
		if own != nil && !mine {
			continue // another shard's
		}
		ps := &PackageSummary{Path: p.Path, Issues: p.Issues, groups: groups}
		if ws.inModCache(dir) && p.Module != nil {
			l, err := ws.link(p.Module.Dir)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(p.Module.Dir, dir)
			dir = filepath.Join(l, rel)
		}
		name := strings.ReplaceAll(p.Path, "/", "_")
		if cfg.Race {
			name += ".race"
		}
		ps.dir = dir
		if p.Err != "" {
			ps.Err = fmt.Errorf("%s does not build as written (nor under go test):\n%s", p.Path, p.Err)
			ps.Build = time.Since(start)
			out = append(out, ps)
			continue
		}
		ps.key = srcs.key(p.Path, ws.replaced)
		ps.frame, ps.own = srcs.frame(p.Path, ws.replaced)
		if b, ok := before[p.Path]; ok && ps.key != "" && b.Key == ps.key {
			// Built from the same files: the edit was elsewhere.
			cfg.logf("morpheus: %s: its test binary is built from the same files as before: reusing it", p.Path)
			ps.Binary, ps.Build = b.Binary, time.Since(start)
			ph.done("reused " + p.Path)
			out = append(out, ps)
			continue
		}
		if !vet.off {
			if msg, ok := vetPackages(ctx, cfg.Dir, env, vet, p.Path); !ok {
				// go vet's output names the user's files as go test's does.
				ps.Err = fmt.Errorf("go vet %s failed; go test runs the same vet and stops there too (-vet=off skips it):\n%s", p.Path, msg)
				ps.Build = time.Since(start)
				out = append(out, ps)
				continue
			}
		}
		bin := filepath.Join(ws.dir, "bin", name+".test")
		// go test's vet ran above, on the package as written.
		args := []string{"test", "-c", "-vet=off", "-o", bin, "-overlay", overlay}
		if cfg.Race {
			args = append(args, "-race")
		}
		if alt != "" {
			// -mod=mod: the alternate go.mod may need the requirements
			// of morpheus; the go command completes it, in the cache.
			args = append(args, "-modfile", alt, "-mod=mod")
		}
		args = append(args, p.Path)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = cfg.Dir, env
		cfg.logf("morpheus: go %s", strings.Join(args, " "))
		if msg, err := cmd.CombinedOutput(); err != nil {
			ps.Err = fmt.Errorf("building the rewritten tests of %s: %v\n%s", p.Path, err, ws.userPaths(string(msg), cfg.Dir))
		} else if _, err := os.Stat(bin); err == nil {
			ps.Binary = bin
		}
		ps.Build = time.Since(start)
		ph.done("go test -c " + p.Path)
		out = append(out, ps)
	}
	if fp != "" {
		if err := savePrepared(record, fp, out); err != nil {
			cfg.logf("morpheus: recording the build for reuse: %v", err)
		}
	}
	return out, nil
}
