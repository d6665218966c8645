package driver

import (
	"bytes"
	"context"
	"encoding/json"
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
	"github.com/morpheus-go/morpheus/rt"
)

// Run rewrites and builds the packages, then runs their tests under
// morpheus: Jobs processes per package, each with Schedules/Jobs schedules
// per test and its own seed, or one process replaying cfg.Replay.
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
	for _, p := range pkgs {
		if p.Err != nil || p.Binary == "" {
			continue
		}
		if interrupt.Interrupted() {
			p.Err = errors.New("not run: interrupted")
			continue
		}
		runPackage(ctx, cfg, p)
	}
	return sum, nil
}

// listTargets maps the packages the patterns match to their directories.
func listTargets(ctx context.Context, cfg Config, env []string) (map[string]string, error) {
	args := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}"}, cfg.Patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = cfg.Dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(cfg.Patterns, " "), err, stderr.String())
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, dir, ok := strings.Cut(line, "\t"); ok {
			m[path] = dir
		}
	}
	return m, nil
}

// runPackage runs one package's test binary in parallel processes.
func runPackage(ctx context.Context, cfg Config, p *PackageSummary) {
	jobs := max(cfg.Jobs, 1)
	total, budget := schedules(cfg)
	if total > 0 {
		jobs = min(jobs, total)
	}
	tmp, err := os.MkdirTemp("", "morpheus-rewrite-run")
	if err != nil {
		p.Err = err
		return
	}
	defer os.RemoveAll(tmp)
	traces := filepath.Join(filepath.Dir(filepath.Dir(p.Binary)), "traces")
	run := cfg.Run
	if run == "" {
		run = "^Test"
	}
	corpusList := filepath.Join(tmp, "corpus.txt")
	if cfg.Corpus {
		if err := listCorpus(p.dir, corpusList); err != nil {
			p.Err = err
			return
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	outputs := make([]string, jobs)
	failed := make([]bool, jobs)
	for j := range jobs {
		n := total / jobs // 0: unlimited
		if j < total%jobs {
			n++
		}
		base := os.Environ()
		if cfg.Env != nil {
			base = cfg.Env
		}
		env := append(slices.Clone(base),
			rt.EnvSchedules+"="+strconv.Itoa(n),
			rt.EnvOut+"="+filepath.Join(tmp, fmt.Sprintf("job%d.jsonl", j)),
			rt.EnvTraces+"="+traces,
			rt.EnvHint+"="+replayHint(cfg, p),
		)
		if budget != "" {
			env = append(env, rt.EnvBudget+"="+budget)
		}
		if cfg.Duration > 0 {
			env = append(env, rt.EnvDuration+"="+cfg.Duration.String())
		}
		if cfg.Corpus {
			// Every process replays the traces saved before this run,
			// not those another process saves meanwhile.
			env = append(env, rt.EnvCorpus+"=true", rt.EnvCorpusList+"="+corpusList)
		}
		env = append(env, checkEnv(tmp, j, jobs)...)
		// Each process varies the base seed (rt.JobSeed): the user's
		// -seed, or, without one, each test's own, from its name.
		switch {
		case cfg.Seed != 0:
			env = append(env, rt.EnvSeed+"="+strconv.FormatUint(rt.JobSeed(cfg.Seed, j), 10))
		case jobs > 1:
			env = append(env, rt.EnvJob+"="+strconv.Itoa(j))
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
			env = append(env, rt.EnvEarlyTimers+"="+strconv.Itoa(max(cfg.EarlyTimers, 0)))
		}
		if cfg.Count {
			env = append(env, rt.EnvCount+"=true")
		}
		if cfg.Replay != "" {
			env = append(env, rt.EnvReplay+"="+absPath(cfg.Replay))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Framed output (output.go) tells which test printed what.
			cmd := exec.CommandContext(ctx, p.Binary, "-test.run", run, "-test.count=1", "-test.v=test2json")
			cmd.Dir, cmd.Env = p.dir, env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := interrupt.Run(cmd) // under a command that watches, an interrupt reaches it once
			outputs[j], failed[j] = out.String(), err != nil
		}()
	}
	wg.Wait()
	p.Elapsed = time.Since(start)
	byName := map[string]*TestSummary{}
	found := map[string][]string{} // test -> the traces of its failing records
	for j := range jobs {
		data, _ := os.ReadFile(filepath.Join(tmp, fmt.Sprintf("job%d.jsonl", j)))
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			var r rt.Result
			if err := dec.Decode(&r); err != nil {
				break
			}
			t := byName[r.Test]
			if t == nil {
				t = &TestSummary{Name: r.Test}
				byName[r.Test] = t
				p.Tests = append(p.Tests, t)
			}
			t.Schedules += r.Schedules
			t.Steps += r.Steps
			t.Hits += r.Hits
			t.Skipped = t.Skipped || r.Skipped
			t.Interrupted = t.Interrupted || r.Interrupted
			t.Stopped = mergeStopped(t.Stopped, r.Stopped)
			t.Elapsed = max(t.Elapsed, time.Duration(r.Nanos))
			if r.Real != "" {
				t.Real = r.Real
			}
			if r.Failure != "" && t.Failure == "" {
				t.Failure, t.Kind, t.Location, t.Trace = r.Failure, r.Kind, r.Location, r.Trace
				t.Task, t.Message = r.Task, r.Message
				if r.Real != "" {
					t.Failure += "\n" + testOutput(outputs[j], r.Test)
				}
				t.Log = keepOutput(t, testOutput(outputs[j], t.Name))
			}
			if r.Failure != "" {
				found[r.Test] = append(found[r.Test], r.Trace)
			}
			t.Foreign = mergeSorted(t.Foreign, r.Foreign)
			t.Stale = mergeSorted(t.Stale, r.Stale)
			t.Passed = mergeSorted(t.Passed, r.Passed)
		}
	}
	if cfg.Corpus {
		before := readCorpusList(corpusList)
		for _, t := range p.Tests {
			keepOnce(p.dir, t, found[t.Name], before)
			if cfg.Prune {
				prune(p.dir, t)
			}
		}
	}
	sort.Slice(p.Tests, func(i, j int) bool { return p.Tests[i].Name < p.Tests[j].Name })
	if p.Checks, err = readChecks(tmp, jobs); err != nil {
		p.Err = fmt.Errorf("reading the records of morpheus.Check: %v", err)
		return
	}
	for j := range jobs {
		if failed[j] && !anyFailure(p.Tests) && !anyCheckFailed(p.Checks) && !interrupted(p) {
			// The process failed, but no test under morpheus did: a crash,
			// a test outside control, a build of the test main.
			p.Output = plainOutput(outputs[j])
			p.Err = fmt.Errorf("the test process failed outside morpheus's control")
			return
		}
	}
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
var stopOrder = map[string]int{rt.StopSchedules: 1, rt.StopTime: 2, rt.StopExhausted: 3, rt.StopInterrupted: 4, rt.StopFailure: 5}

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
	out := make([]string, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
