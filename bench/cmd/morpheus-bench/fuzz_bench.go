package main

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/runner"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// fuzzCampaign is what "bench fuzz -coverage" takes from one campaign: the
// figures of its summary, and its observed unordered pairs as event keys,
// read back from its directory.
type fuzzCampaign struct {
	runs, satisfied, timedOut, notReached, skipped, pairs, errors int
	elapsed                                                       time.Duration
	bug                                                           bool // an error run showed the demo's bug
	pairSet                                                       map[string]bool
}

// summary lines of morpheus fuzz, as every version since the ordering server
// has printed them (a newer one adds "; N skipped ...").
var (
	reRuns        = regexp.MustCompile(`mode server: (\d+) runs? in (\S+) `)
	reConstraints = regexp.MustCompile(`constraints (\d+): (\d+) satisfied, (\d+) timed out \(infeasible\), (\d+) not reached(?:; (\d+) skipped)?`)
	rePairs       = regexp.MustCompile(`observed unordered pairs (\d+)`)
	reErrors      = regexp.MustCompile(`error runs (\d+) `)
)

// parseFuzzSummary reads the figures of a server campaign's summary.
func parseFuzzSummary(text string) (fuzzCampaign, error) {
	var c fuzzCampaign
	m := reRuns.FindStringSubmatch(text)
	k := reConstraints.FindStringSubmatch(text)
	p := rePairs.FindStringSubmatch(text)
	e := reErrors.FindStringSubmatch(text)
	if m == nil || k == nil || p == nil || e == nil {
		return c, fmt.Errorf("unexpected summary:\n%s", text)
	}
	var err error
	if c.elapsed, err = time.ParseDuration(m[2]); err != nil || c.elapsed <= 0 {
		return c, fmt.Errorf("duration %q: expected a positive duration", m[2])
	}
	c.runs, _ = strconv.Atoi(m[1])
	c.satisfied, _ = strconv.Atoi(k[2])
	c.timedOut, _ = strconv.Atoi(k[3])
	c.notReached, _ = strconv.Atoi(k[4])
	c.skipped, _ = strconv.Atoi(k[5]) // "" before there was a skip: 0
	c.pairs, _ = strconv.Atoi(p[1])
	c.errors, _ = strconv.Atoi(e[1])
	c.bug = strings.Contains(text, "wrong result")
	return c, nil
}

// runFuzzCampaign runs "BIN fuzz -runs RUNS -jobs JOBS -out DIR -- COMMAND"
// and reads what it did.
func runFuzzCampaign(bin string, runs, jobs int, dir string, command []string, stderr io.Writer) (fuzzCampaign, error) {
	args := append([]string{"fuzz", "-runs", strconv.Itoa(runs), "-jobs", strconv.Itoa(jobs), "-out", dir, "--"}, command...)
	cmd := exec.Command(bin, args...)
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok { // exit 1: error runs, which the demo's bug makes
		return fuzzCampaign{}, err
	}
	c, err := parseFuzzSummary(string(out))
	if err != nil {
		return c, fmt.Errorf("%s fuzz: %w", bin, err)
	}
	st, err := runner.Read(dir)
	if err != nil {
		return c, err
	}
	c.pairSet = map[string]bool{}
	for _, pr := range st.Cov.All() {
		// The first trace, and so the pair's order, differs by campaign.
		a, b := st.Events.Key(pr.A), st.Events.Key(pr.B)
		c.pairSet[min(a, b)+" "+max(a, b)] = true
	}
	return c, nil
}

// benchFuzzCoverage runs campaigns of the demo with the binaries named
// (this one, and -before's), taking turns, and prints them side by side with
// medians, and the unordered pairs one side found and the other did not.
func benchFuzzCoverage(stdout, stderr io.Writer, bins, names []string, runs, jobs, repeat int, command []string, tmp string) error {
	results := make([][]fuzzCampaign, len(bins))
	// Taking turns, so that a change of the machine's load falls on both.
	for r := 0; r < repeat; r++ {
		for i, bin := range bins {
			dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", names[i], r+1))
			c, err := runFuzzCampaign(bin, runs, jobs, dir, command, stderr)
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "%s %d: %s in %v, %d satisfied, %s\n", names[i], r+1, plural.N(c.runs, "run"), c.elapsed.Round(time.Millisecond), c.satisfied, plural.N(c.pairs, "pair"))
			results[i] = append(results[i], c)
		}
	}
	fmt.Fprintf(stdout, "command     morpheus fuzz -runs %d -jobs %d -- %s; %d campaigns each\n\n", runs, jobs, strings.Join(command, " "), repeat)
	fmt.Fprintf(stdout, "%-30s", "")
	for _, n := range names {
		for r := 0; r < repeat; r++ {
			fmt.Fprintf(stdout, " %9s", fmt.Sprintf("%s %d", n, r+1))
		}
		fmt.Fprintf(stdout, " %9s", "median")
	}
	fmt.Fprintln(stdout)
	rows := []struct {
		name string
		f    func(c fuzzCampaign) float64
	}{
		{"runs", func(c fuzzCampaign) float64 { return float64(c.runs) }},
		{"wall time (s)", func(c fuzzCampaign) float64 { return c.elapsed.Seconds() }},
		{"constraints satisfied", func(c fuzzCampaign) float64 { return float64(c.satisfied) }},
		{"timed out", func(c fuzzCampaign) float64 { return float64(c.timedOut) }},
		{"not reached", func(c fuzzCampaign) float64 { return float64(c.notReached) }},
		{"skipped (predicted infeasible)", func(c fuzzCampaign) float64 { return float64(c.skipped) }},
		{"satisfied per minute", func(c fuzzCampaign) float64 { return float64(c.satisfied) / c.elapsed.Minutes() }},
		{"observed unordered pairs", func(c fuzzCampaign) float64 { return float64(c.pairs) }},
		{"error runs", func(c fuzzCampaign) float64 { return float64(c.errors) }},
		{"bug found (1 = yes)", func(c fuzzCampaign) float64 { return b2f(c.bug) }},
	}
	medians := make([][]float64, len(rows))
	for j, row := range rows {
		fmt.Fprintf(stdout, "%-30s", row.name)
		for _, cs := range results {
			var vs []float64
			for _, c := range cs {
				v := row.f(c)
				vs = append(vs, v)
				fmt.Fprintf(stdout, " %9s", num(v))
			}
			m := median(vs)
			medians[j] = append(medians[j], m)
			fmt.Fprintf(stdout, " %9s", num(m))
		}
		fmt.Fprintln(stdout)
	}
	if len(bins) == 2 {
		fmt.Fprintf(stdout, "\nmedian satisfied per minute: %s / %s = %.2f×\n", num(medians[6][1]), num(medians[6][0]), medians[6][1]/medians[6][0])
		only := func(a, b []fuzzCampaign) []string {
			in := map[string]bool{}
			for _, c := range b {
				for p := range c.pairSet {
					in[p] = true
				}
			}
			var out []string
			for _, c := range a {
				for p := range c.pairSet {
					if !in[p] {
						in[p] = true
						out = append(out, p)
					}
				}
			}
			sort.Strings(out)
			return out
		}
		for _, d := range []struct {
			a, b int
		}{{0, 1}, {1, 0}} {
			ps := only(results[d.a], results[d.b])
			fmt.Fprintf(stdout, "pairs %s found (in any campaign) and %s did not (in any): %d\n", names[d.a], names[d.b], len(ps))
			for _, p := range ps {
				fmt.Fprintf(stdout, "    %s\n", p)
			}
		}
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func median(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// num prints v as an integer when it is one, else with one decimal.
func num(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
