package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/interrupt"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/rt"
)

// Run rewrites and builds the packages, then runs their tests under
// morpheus: Jobs processes per package, each running its shard of every
// test's schedules (runPackage), or one process replaying cfg.Replay.
// ErrNotRun is the error of a package whose tests did not start because
// the run was interrupted: no failure.
var ErrNotRun = errors.New("not run: interrupted")

func Run(ctx context.Context, cfg Config) (*Summary, error) {
	pkgs, err := Prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Replay != "" {
		pkgs = replayPackages(cfg.Replay, pkgs)
	}
	sum := &Summary{Packages: pkgs}
	if cfg.BuildOnly {
		return sum, nil
	}
	ph := newPhases("run")
	defer ph.print()
	for _, p := range pkgs {
		switch {
		case p.Err != nil || p.Binary == "":
		case interrupt.Interrupted():
			p.Err = ErrNotRun
		case cachedRun(cfg, p):
		case cfg.Replay != "":
			replayPackage(ctx, cfg, p)
			ph.done("test processes of " + p.Path)
			ph.add(p.procPhases)
		default:
			runEdited(ctx, cfg, p) // runPackage, but for the tests an edit left as they were
			ph.done("test processes of " + p.Path)
			ph.add(p.procPhases)
		}
		if cfg.Done != nil {
			cfg.Done(p)
		}
	}
	return sum, nil
}

// listTargets maps the packages the patterns match to their directories,
// and tells those with test files.
func listTargets(ctx context.Context, cfg Config, env []string) (map[string]string, map[string]bool, error) {
	args := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{if or .TestGoFiles .XTestGoFiles}}tests{{end}}"}, cfg.Patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = cfg.Dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(cfg.Patterns, " "), err, stderr.String())
	}
	m, tested := map[string]string{}, map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Split(line, "\t"); len(f) == 3 {
			m[f[0]] = f[1]
			tested[f[0]] = f[2] != ""
		}
	}
	return m, tested, nil
}

// runPackage runs one package's test binary in parallel processes. Of a
// machine's shard I/N (Config.Shard; 0/1 without one), process j of its
// jobs runs shard I+N*j of N*jobs of every test's schedules: schedule i runs
// on machine i mod N, in the process of that machine whose number is
// (i div N) mod jobs, with the seed it has in every run. A shard that runs
// other groups of the package's processes (shardpkgs.go) runs, for each
// group g, the processes shard g would run, at most jobs at a time. The
// processes' records are collected while they run (collector), each test's
// merged outcome handed to Config.Finished once every process reported it.
func runPackage(ctx context.Context, cfg Config, p *PackageSummary) {
	total, _ := schedules(cfg)
	shard := cfg.Shard
	if shard.N < 1 {
		shard = Shard{0, 1}
	}
	groups := p.groups
	if groups == nil {
		groups = []int{shard.I}
	}
	jobs := max(cfg.Jobs, 1)
	procs := packageProcs(jobs, total, shard.N, groups)
	tmp, err := os.MkdirTemp("", "morpheus-rewrite-run")
	if err != nil {
		p.Err = err
		return
	}
	defer os.RemoveAll(tmp)
	// The first process runs in the package's directory, each other in a
	// private copy of it (jobdir.go); without copies, one at a time.
	dirs, cleanup, err := jobDirs(tmp, p.dir, len(procs), cfg.Corpus)
	if err != nil {
		fmt.Fprintf(os.Stderr, "morpheus: %s: its test processes run one at a time in its directory: %v\n", p.Path, err)
		jobs = 1
		procs = packageProcs(jobs, total, shard.N, groups)
		dirs, cleanup = slices.Repeat([]jobDir{{dir: p.dir}}, len(procs)), func() {}
	}
	defer cleanup()
	traces := filepath.Join(filepath.Dir(filepath.Dir(p.Binary)), "traces")
	run := cfg.Run
	if run == "" {
		run = "^Test"
	}
	corpusList := filepath.Join(tmp, "corpus.txt")
	p.shown = shownDir(cfg, p.dir)
	p.hintDir, p.hintReplay = cfg.Dir, cfg.Replay
	if cfg.Corpus {
		if err := listCorpus(p.dir, corpusList); err != nil {
			p.Err = err
			return
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	n := len(procs)
	outputs := make([]*procOutput, n)
	failed := make([]bool, n)
	var stats []*procStat // with EnvPhases (procphases.go)
	if phasesOn() {
		stats = make([]*procStat, n)
	}
	slots := make(chan struct{}, jobs)
	settings := runSettings(cfg, p)
	logs := make([]string, n)
	for j, pr := range procs {
		base := os.Environ()
		if cfg.Env != nil {
			base = cfg.Env
		}
		env := append(slices.Clone(base), settings...)
		env = append(env,
			rt.EnvOut+"="+jobFile(tmp, j),
			rt.EnvTraces+"="+traces,
		)
		if cfg.Corpus {
			// Every process replays the traces saved before this run,
			// not those another process saves meanwhile.
			env = append(env, rt.EnvCorpusList+"="+corpusList)
		}
		env = append(env, checkEnv(tmp, j, pr.k, pr.m)...)
		logs[j] = filepath.Join(tmp, fmt.Sprintf("job%d.testlog", j))
		if outputs[j], err = newProcOutput(filepath.Join(tmp, fmt.Sprintf("job%d.out", j))); err != nil {
			p.Err = err
			return
		}
		defer outputs[j].Close()
		if stats != nil {
			stats[j] = &procStat{explore: map[string]time.Duration{}}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			// Framed output (output.go) tells which test printed what.
			// -test.run is one argument, as go test passes it: a
			// TestMain may look for the prefix in os.Args.
			cmd := exec.CommandContext(ctx, p.Binary, "-test.run="+run, "-test.count=1", "-test.v=test2json", "-test.testlogfile="+logs[j])
			cmd.Dir, cmd.Env = dirs[j].dir, env
			cmd.Stdout, cmd.Stderr = outputs[j], outputs[j]
			began := time.Now()
			err := interrupt.Run(cmd) // under a command that watches, an interrupt reaches it once
			failed[j] = err != nil
			if stats != nil {
				stats[j].wall = time.Since(began)
				stats[j].setCPU(cmd)
			}
		}()
	}
	ended := make(chan struct{})
	go func() { wg.Wait(); close(ended) }()
	c := &collector{cfg: cfg, p: p, tmp: tmp, jobs: n, dirs: dirs, outputs: outputs, corpusList: corpusList,
		offsets: make([]int64, n), byName: map[string]*collected{}, stats: stats}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-ended:
			break wait
		case <-tick.C:
			c.poll(false)
		}
	}
	for j := range n {
		c.read(j)
		if failed[j] {
			c.failCrashed(j)
		}
	}
	c.poll(true)
	p.Elapsed = time.Since(start)
	if stats != nil {
		p.procPhases = procPhases(stats, outputs)
	}
	sort.Slice(p.Tests, func(i, j int) bool { return p.Tests[i].Name < p.Tests[j].Name })
	if p.Checks, err = groupChecks(tmp, procs, shard.N, len(groups)); err != nil {
		p.Err = fmt.Errorf("reading the records of morpheus.Check: %v", err)
		return
	}
	for j := range n {
		if failed[j] && !anyFailure(p.Tests) && !anyCheckFailed(p.Checks) && !interrupted(p) {
			// The process failed, but no test under morpheus did: a crash,
			// a test outside control, a build of the test main.
			p.Output = outputs[j].plain()
			p.Err = fmt.Errorf("the test process failed outside morpheus's control")
			return
		}
	}
	keepOutcome(cfg, p, tmp, logs)
}

// runSettings are the environment entries of every test process of p
// under cfg that shape its schedules and reports, the same in every run
// with these settings (the key of a cached outcome, testcache.go).
func runSettings(cfg Config, p *PackageSummary) []string {
	total, budget := schedules(cfg)
	env := []string{
		rt.EnvSchedules + "=" + strconv.Itoa(total), // of the whole run: the shard runs its part
		rt.EnvHint + "=" + replayHint(cfg, p),
		rt.EnvShownDir + "=" + shownDir(cfg, p.dir),
	}
	if budget != "" {
		env = append(env, rt.EnvBudget+"="+budget)
	}
	if cfg.Duration > 0 {
		env = append(env, rt.EnvDuration+"="+cfg.Duration.String())
	}
	if cfg.Corpus {
		env = append(env, rt.EnvCorpus+"=true")
	}
	if cfg.Seed != 0 {
		env = append(env, rt.EnvSeed+"="+strconv.FormatUint(cfg.Seed, 10))
	}
	if cfg.Strategy != "" {
		env = append(env, rt.EnvStrategy+"="+cfg.Strategy)
	}
	if cfg.Watchdog > 0 {
		env = append(env, rt.EnvWatchdog+"="+cfg.Watchdog.String())
	}
	if cfg.MaxSteps > 0 {
		env = append(env, rt.EnvMaxSteps+"="+strconv.Itoa(cfg.MaxSteps))
	}
	if cfg.AllowLeaks {
		env = append(env, rt.EnvAllowLeaks+"=true")
	}
	if cfg.AllowRaces {
		env = append(env, rt.EnvAllowRaces+"=true")
	}
	if cfg.EarlyTimers != 0 {
		env = append(env, rt.EnvEarlyTimers+"="+strconv.Itoa(max(cfg.EarlyTimers, -1)))
	}
	if cfg.Epoch != "" {
		env = append(env, rt.EnvEpoch+"="+cfg.Epoch)
	}
	if cfg.Count {
		env = append(env, rt.EnvCount+"=true")
	}
	if cfg.Replay != "" {
		env = append(env, rt.EnvReplay+"="+absPath(cfg.Replay))
	}
	return env
}

// A proc is one test process of a package: it runs shard k of m of every
// test's schedules and Check's iterations; group is the shard of N whose
// processes it is one of.
type proc struct{ k, m, group int }

// packageProcs returns the processes that run the given groups of a
// package's processes, group by group: group g of N has jobs processes,
// g+N*j of N*jobs, as shard g of N runs them with -jobs jobs, but no more
// than the group has schedules of a test (total, 0: unlimited), though
// one, for the Checks and the corpus.
func packageProcs(jobs, total, n int, groups []int) []proc {
	var out []proc
	for _, g := range groups {
		gj := jobs
		if total > 0 {
			gj = max(1, min(jobs, shardShare(total, Shard{g, n})))
		}
		for j := range gj {
			out = append(out, proc{k: g + n*j, m: n * gj, group: g})
		}
	}
	return out
}

// groupChecks merges the Check records of each group's processes into the
// group's (shard g of n, when n > 1); the groups a shard runs, all n of
// them (of groups) merge on into the whole run's.
func groupChecks(tmp string, procs []proc, n, groups int) ([]*results.Record, error) {
	var all []*results.Record
	for start := 0; start < len(procs); {
		g := procs[start].group
		var files []int
		for ; start < len(procs) && procs[start].group == g; start++ {
			files = append(files, start)
		}
		recs, err := readChecks(tmp, files)
		if err != nil {
			return nil, err
		}
		if n > 1 {
			// The group's processes together ran shard g of each Check.
			for _, r := range recs {
				r.Shard, r.Shards = fmt.Sprintf("%d/%d", g, n), 0
			}
		}
		all = append(all, recs...)
	}
	if n > 1 && groups == n && len(all) > 0 {
		return results.Merge(all, true) // a group whose process died is left out, as in readChecks
	}
	return all, nil
}

func jobFile(dir string, j int) string { return filepath.Join(dir, fmt.Sprintf("job%d.jsonl", j)) }

// shardShare is how many of the schedules 0..n-1 shard s runs.
func shardShare(n int, s Shard) int {
	if n <= s.I {
		return 0
	}
	return (n-s.I-1)/s.N + 1
}

// interrupted reports whether a test or Check of p was interrupted: its
// process then fails without a failure under control.
func interrupted(p *PackageSummary) bool {
	for _, t := range p.Tests {
		if t.Interrupted {
			return true
		}
	}
	for _, r := range p.Checks {
		if r.Interrupted {
			return true
		}
	}
	return false
}

func anyFailure(ts []*TestSummary) bool {
	for _, t := range ts {
		if t.Failure != "" {
			return true
		}
	}
	return false
}

// schedules returns the schedules per test over all processes (0:
// unlimited) and the scaled time budget (rt.EnvBudget) of cfg.
func schedules(cfg Config) (int, string) {
	switch {
	case cfg.Replay != "":
		return 1, "off"
	case cfg.Schedules == 0 && cfg.Duration == 0:
		return rt.DefaultSchedules, "" // rt's default budget
	case cfg.Schedules > 0:
		return cfg.Schedules, "off"
	}
	return 0, "off"
}

// stopOrder ranks the reasons a test's processes stopped: the test's is the
// highest of them.
var stopOrder = map[string]int{rt.StopSchedules: 1, rt.StopTime: 2, rt.StopCut: 3, rt.StopExhausted: 4, rt.StopInterrupted: 5, rt.StopFailure: 6}

func mergeStopped(a, b string) string {
	if stopOrder[b] > stopOrder[a] {
		return b
	}
	return a
}

func mergeSorted(a, b []string) []string {
	m := map[string]bool{}
	for _, s := range append(a, b...) {
		m[s] = true
	}
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
