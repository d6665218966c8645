package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/plural"
)

// morpheus bench goreal: GoBench's GoReal bugs, in the applications
// themselves, bug and fix side by side. The bugs are read from a GoBench
// checkout and the applications from clones the user has; nothing of
// either is built into morpheus.

func init() {
	registerBench(&command{
		name:    "goreal",
		summary: "run GoBench's GoReal bugs in their applications: bug and fixed version, morpheus test beside go test and go test -race",
		run:     runBenchGoReal,
	})
}

const benchGoRealUsage = `Usage: morpheus bench goreal -dir GOBENCH -repos DIR [flags]

Runs the bugs of GoBench's GoReal (gobench/goreal: a named test function of
an application at its last bug-free commit, and the patch that puts the bug
back) from a GoBench checkout GOBENCH, in clones of the applications under
DIR named as their repositories (DIR/grpc-go, DIR/etcd, DIR/kubernetes,
DIR/moby, DIR/cockroach, DIR/istio, DIR/serving, DIR/hugo, DIR/syncthing),
each with its history.

For each bug, two temporary trees: the fixed version (the commit) and the
bug version (the commit and bug_patch.diff), both with the build fixes of
GoBench's Dockerfiles that edit Go files (sed -i) and one of its own for
today's Go: a literal base64 alphabet with a repeated symbol (a vendored
ugorji/go codec's, which Go 1.22 and later reject as the package starts)
gets a symbol it lacks instead of each repeat. A commit without a go.mod
gets one: go mod init with the application's import path, the go line of
the Go release GoBench built it with, and go mod tidy through a module proxy
that answers as the real one (GOPROXY) did at the commit's date, so that
every dependency is at the newest version not later than the commit (a
module with none that old at its oldest). A vendor tree with modules.txt is
built from. Then, in both trees, the bug's test alone (-run '^Test$'):
morpheus test -vet=off with -schedules; each find replayed -replays times
with its trace; go test -vet=off -count N, and the same with -race.

A bug is found when morpheus test fails its test in the bug version; a
failure in the fixed version is a false alarm unless plain go test or go test
-race fails the fixed version too in the same run (then the fixed version
has a bug of its own, or the fix is incomplete), or the failure (kind and
line) is listed in benchdata/goreal-expect.txt as a second real bug of the
fixed version with its evidence (plain Go, changed only by a delay of one
goroutine, failing the same way: "fails (KIND, a listed second real bug)",
fixed_known in -json). Bugs whose clone is missing, whose patch does not apply or whose
package go test does not build are listed with the reason.

Flags:
  -dir GOBENCH   a GoBench checkout (its root or its gobench/ folder)
  -repos DIR     the applications' clones
  -bugs LIST     comma-separated bugs (grpc_795) or projects (grpc, etcd)
  -schedules N   morpheus test's schedules per run (default 2000)
  -count N       go test's -count for the baselines (default 100)
  -replays N     replays of each find (default 3)
  -timeout D     time-out of each morpheus test run (default 10m)
  -gotimeout D   go test's -timeout in the baselines (default 3m): a test
                 that blocks fails there
  -watchdog D    morpheus test's -watchdog (default 1m): the applications
                 do real file I/O (a database's fsync), which on a busy
                 machine takes longer than morpheus's default
  -earlytimers N morpheus test's -earlytimers (default 0: not passed, none;
                 -1: the portfolio)
  -work DIR      keep the trees, the rewrite cache and the baselines'
                 outputs (bug.gotest.log, fixed.gotest-race.log, ...) in DIR
  -json          one JSON record per bug, then the totals
`

func runBenchGoReal(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench goreal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchGoRealUsage) }
	dir := fs.String("dir", "", "")
	repos := fs.String("repos", "", "")
	only := fs.String("bugs", "", "")
	schedules := fs.Int("schedules", 2000, "")
	count := fs.Int("count", 100, "")
	replays := fs.Int("replays", 3, "")
	timeout := fs.Duration("timeout", 10*time.Minute, "")
	goTimeout := fs.Duration("gotimeout", 3*time.Minute, "")
	watchdog := fs.Duration("watchdog", time.Minute, "")
	early := fs.Int("earlytimers", 0, "")
	work := fs.String("work", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(stderr, "morpheus bench goreal: "+format+"\n", a...)
		return errUsage
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected arguments %q", fs.Args())
	case *dir == "" || *repos == "":
		return usage("-dir GOBENCH and -repos DIR are required")
	case *schedules <= 0 || *count <= 0 || *replays < 0 || *early < -1:
		return usage("-schedules and -count must be positive, -replays not negative, -earlytimers -1 or more")
	case *timeout <= 0 || *goTimeout <= 0 || *watchdog <= 0:
		return usage("-timeout, -gotimeout and -watchdog must be positive")
	}
	expect, err := parseRealExpect("benchdata/goreal-expect.txt", defaultRealExpect)
	if err != nil {
		return err
	}
	bugs, err := loadRealBugs(*dir)
	if err != nil {
		return usage("%v", err)
	}
	if bugs, err = selectRealBugs(bugs, *only); err != nil {
		return usage("%v", err)
	}
	self, err := morpheusExecutable()
	if err != nil {
		return err
	}
	root := *work
	if root == "" {
		if root, err = os.MkdirTemp("", "morpheus-bench-goreal-"); err != nil {
			return err
		}
		defer os.RemoveAll(root)
	} else if root, err = filepath.Abs(root); err != nil {
		return err
	}
	reposDir, err := filepath.Abs(*repos)
	if err != nil {
		return err
	}
	env := benchEnv()
	proxy := ""
	if up := upstreamProxy(goEnvValue("GOPROXY")); up != "" {
		url, stop, err := startDateProxy(up)
		if err != nil {
			return err
		}
		defer stop()
		proxy = url
	}
	s := realSettings{self: self, cache: filepath.Join(root, "cache"), schedules: *schedules, count: *count, replays: *replays, timeout: *timeout, goTimeout: *goTimeout, watchdog: *watchdog, early: *early, expect: expect}
	enc := json.NewEncoder(stdout)
	var rows []*realRow
	for _, b := range bugs {
		fmt.Fprintf(stderr, "bench goreal: %s %s %s ...\n", b.Name, b.Test, b.Pkg)
		row := &realRow{Name: b.Name, Project: b.Project, Type: b.Type, Subtype: b.Subtype, Test: b.Test, Package: b.Pkg, Commit: b.Commit}
		clone := filepath.Join(reposDir, b.Repo)
		bugWork := filepath.Join(root, b.Name)
		if b.Test == "" {
			row.Reason = "GoBench names no test function"
		} else if st, err := os.Stat(clone); err != nil || !st.IsDir() {
			row.Reason = "no clone " + clone
		} else if t, err := prepareRealTrees(b, clone, bugWork, env, proxy); err != nil {
			row.Reason = err.Error()
		} else {
			measureRealBug(b, t, s, row)
		}
		cleanTrees(bugWork, *work != "")
		fmt.Fprintf(stderr, "bench goreal: %s\n", row.progressLine())
		rows = append(rows, row)
		if *asJSON {
			if err := enc.Encode(row); err != nil {
				return err
			}
		}
	}
	if *asJSON {
		return enc.Encode(totalOfRows(rows))
	}
	printRealTable(stdout, rows, s, *work != "")
	return nil
}

// goEnvValue is go env's value of key (what the go commands here use).
func goEnvValue(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return os.Getenv(key)
	}
	return strings.TrimSpace(string(out))
}

func (r *realRow) progressLine() string {
	switch {
	case !r.Built:
		return r.Name + ": not built: " + r.Reason
	case r.Found:
		return fmt.Sprintf("%s: found (%s at %s) in %s, %.0fs; replays %d/%d; fixed: %s; go test %s, -race %s",
			r.Name, r.Kind, r.Location, plural.N(r.Schedules, "schedule"), r.Seconds, r.Replays, r.ReplaysRun, r.fixedCell(), foundMark(r.BaselineFound), foundMark(r.BaselineRaceFound))
	}
	msg := fmt.Sprintf("%s: not found in %s, %.0fs; fixed: %s; go test %s, -race %s",
		r.Name, plural.N(r.Schedules, "schedule"), r.Seconds, r.fixedCell(), foundMark(r.BaselineFound), foundMark(r.BaselineRaceFound))
	if r.Error != "" {
		msg += "; " + r.Error
	}
	return msg
}

func (r *realRow) fixedCell() string {
	if r.FixedFailures > 0 && r.FixedConfirmed {
		return "fails (" + r.FixedKind + ", go test too)"
	}
	if r.FixedFailures > 0 && r.FixedKnown != "" {
		return "fails (" + r.FixedKind + ", a listed second real bug)"
	}
	if r.FixedFailures > 0 {
		return "fails (" + r.FixedKind + ")"
	}
	return "passes"
}

func foundMark(b bool) string {
	if b {
		return "found"
	}
	return "-"
}

// printRealTable prints one line per bug, the totals, then the finds'
// goroutines and the reasons of the bugs not built.
func printRealTable(w io.Writer, rows []*realRow, s realSettings, kept bool) {
	fmt.Fprintf(w, "%-16s %-11s %-5s %-6s %-28s %9s %8s %7s %-14s %-8s %-8s %s\n",
		"bug", "type", "built", "found", "kind at", "schedules", "seconds", "replays", "fixed", "go test", "-race", "fixed: go test/-race")
	for _, r := range rows {
		if !r.Built {
			fmt.Fprintf(w, "%-16s %-11s %-5s %s\n", r.Name, r.Type, "no", r.Reason)
			continue
		}
		kind, replays := "-", "-"
		if r.Found {
			kind = r.Kind + " " + filepath.Base(r.Location)
			replays = fmt.Sprintf("%d/%d", r.Replays, r.ReplaysRun)
		} else if r.Error != "" {
			kind = "error"
		}
		fixedBase := foundMark(r.BaselineFixedFailed) + "/" + foundMark(r.BaselineRaceFixedFailed)
		fmt.Fprintf(w, "%-16s %-11s %-5s %-6s %-28s %9d %8.0f %7s %-14s %-8s %-8s %s\n",
			r.Name, r.Type, "yes", map[bool]string{true: "yes", false: "no"}[r.Found], kind, r.Schedules, r.Seconds, replays,
			r.fixedCell(), foundMark(r.BaselineFound), foundMark(r.BaselineRaceFound), fixedBase)
	}
	t := totalOfRows(rows)
	fmt.Fprintf(w, "total: %s, %d built, %d found by morpheus (%s each at most), %s; go test -count %d found %d, go test -race -count %d found %d\n",
		plural.N(t.Bugs, "bug"), t.Built, t.Found, plural.N(s.schedules, "schedule"), plural.N(t.FalseAlarms, "false alarm"), s.count, t.BaselineFound, s.count, t.BaselineRaceFound)
	for _, r := range rows {
		if r.Found {
			fmt.Fprintf(w, "%s: %s\n", r.Name, r.Message)
			for _, g := range r.Goroutines {
				fmt.Fprintf(w, "    %s\n", g)
			}
			if r.Replay != "" {
				fmt.Fprintf(w, "    replay (in %s): %s\n", r.Package, r.Replay)
				if !kept {
					fmt.Fprintf(w, "    (the trees are removed: -work DIR keeps them)\n")
				}
			}
		}
		if r.Built && r.Error != "" {
			fmt.Fprintf(w, "%s: %s\n", r.Name, r.Error)
		}
		if r.FixedFailures > 0 {
			fmt.Fprintf(w, "%s fixed version: %s at %s: %s\n", r.Name, r.FixedKind, r.FixedLocation, r.FixedMessage)
		}
	}
}
