package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/morpheus-go/morpheus/internal/bugs"
)

// morpheusTable3 is Morpheus's Table 3 (ASPLOS'20) for the bugs this suite
// re-creates, by strategy as bench bugs names them: hit ratios over 10,000
// trials of the original Erlang tests.
var morpheusTable3 = map[string]map[string]float64{
	"gproc-1":  {"random": 0, "random+ca": 0.0001, "pct:5": 0.0015, "pct:5+ca": 0.0018, "pos": 0.0031, "pos+ca": 0.0106, "pos*": 0.0008, "pos*+ca": 0.0023},
	"locks-1":  {"random": 0.0042, "random+ca": 0.0312, "pct:5": 0.0895, "pct:5+ca": 0.1164, "pos": 0.1521, "pos+ca": 0.2087, "pos*": 0.1562, "pos*+ca": 0.2239},
	"ms-1":     {"random": 0, "random+ca": 0.0061, "pct:5": 0.3000, "pct:5+ca": 0.2833, "pos": 0.1489, "pos+ca": 0.2420, "pos*": 0.1505, "pos*+ca": 0.2478},
	"mnesia-2": {"random": 0, "random+ca": 0.0008, "pct:5": 0.0075, "pct:5+ca": 0.0078, "pos": 0.0117, "pos+ca": 0.0253, "pos*": 0.0104, "pos*+ca": 0.0254},
}

// paperName returns the name of the bug of Morpheus Table 3 a scenario
// re-creates ("ms-1+w24" -> "ms-1"), or "" if the table does not have it.
func paperName(s bugs.Scenario) string {
	base, _, _ := strings.Cut(s.Name, "+")
	if _, ok := morpheusTable3[base]; ok {
		return base
	}
	return ""
}

// writeBugsPaper prints the scenarios that re-create bugs of Morpheus Table 3
// beside the paper's figures, with both sides' geometric means over those
// bugs and the two headline comparisons (pos+ca against pct:5, and pos+ca
// against pos). A geo-mean with a zero on the paper's side is N/A, as in the
// paper.
func writeBugsPaper(w io.Writer, scenarios []bugs.Scenario, strategies []string, runs [][]bugRun, trials int) {
	var rows []int
	for i, s := range scenarios {
		if paperName(s) != "" {
			rows = append(rows, i)
		}
	}
	var cols []int
	for j, s := range strategies {
		if _, ok := morpheusTable3["ms-1"][s]; ok {
			cols = append(cols, j)
		}
	}
	if len(rows) == 0 || len(cols) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSide by side with Morpheus Table 3 (paper / ours), on the %d of its bugs this run has:\n\n", len(rows))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "scenario\t")
	for _, j := range cols {
		fmt.Fprintf(tw, "%s\t", strategies[j])
	}
	fmt.Fprintln(tw)
	paper := make([]float64, len(strategies)) // log sums; NaN once a zero is seen
	ours := make([]float64, len(strategies))
	for _, i := range rows {
		name := paperName(scenarios[i])
		fmt.Fprintf(tw, "%s\t", scenarios[i].Name)
		for _, j := range cols {
			p, o := morpheusTable3[name][strategies[j]], runs[i][j].ratio()
			fmt.Fprintf(tw, "%s / %s\t", paperRatio(p), paperRatio(o))
			if p == 0 {
				paper[j] = math.NaN()
			}
			paper[j] += math.Log(p)
			ours[j] += math.Log(max(o, 1/float64(trials)))
		}
		fmt.Fprintln(tw)
	}
	n := float64(len(rows))
	mean := func(sum float64) float64 {
		if math.IsNaN(sum) || math.IsInf(sum, -1) {
			return math.NaN()
		}
		return math.Exp(sum / n)
	}
	fmt.Fprint(tw, "geo-mean\t")
	for _, j := range cols {
		fmt.Fprintf(tw, "%s / %s\t", paperRatio(mean(paper[j])), paperRatio(mean(ours[j])))
	}
	fmt.Fprintln(tw)
	tw.Flush()
	col := func(s string) int {
		for _, j := range cols {
			if strategies[j] == s {
				return j
			}
		}
		return -1
	}
	ratio := func(a, b string, sums []float64) float64 {
		ja, jb := col(a), col(b)
		if ja < 0 || jb < 0 {
			return math.NaN()
		}
		return mean(sums[ja]) / mean(sums[jb])
	}
	if v := ratio("pos+ca", "pct:5", ours); !math.IsNaN(v) {
		fmt.Fprintf(w, "on these bugs: pos+ca / pct:5 paper %.2f×, ours %.2f×", ratio("pos+ca", "pct:5", paper), v)
		if c := ratio("pos+ca", "pos", ours); !math.IsNaN(c) {
			fmt.Fprintf(w, "; conflict analysis on pos paper %+.0f%%, ours %+.0f%%", (ratio("pos+ca", "pos", paper)-1)*100, (c-1)*100)
		}
		fmt.Fprintln(w)
	}
}

// paperRatio prints a ratio for the side-by-side table: N/A for a geo-mean
// the paper could not take, 0 for no hit.
func paperRatio(v float64) string {
	switch {
	case math.IsNaN(v):
		return "N/A"
	case v == 0:
		return "0"
	}
	return fmtRatio(v)
}
