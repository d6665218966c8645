package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/morpheus-go/morpheus/internal/sct"
)

// thesisTable33 is the POS thesis's Table 3.3 (SCTBench under Maple, 10,000
// trials a case) for the cases this suite re-creates, by strategy as bench
// sct names them (the thesis's RW, PCT-2, PCT-3, PCT-5 and POS*).
var thesisTable33 = map[string]map[string]float64{
	"reorder_10":      {"random": 0, "pct:2": 0.0007, "pct:3": 0.0014, "pct:5": 0.0021, "pos*": 0.0308},
	"reorder_20":      {"random": 0, "pct:2": 0.0015, "pct:3": 0.0027, "pct:5": 0.0043, "pos*": 0.1709},
	"twostage_100":    {"random": 0, "pct:2": 0, "pct:3": 0, "pct:5": 0.0002, "pos*": 0.0047},
	"WSQ":             {"random": 0.0002, "pct:2": 0.0484, "pct:3": 0.0813, "pct:5": 0.1190, "pos*": 0.0497},
	"IWSQ":            {"random": 0.0010, "pct:2": 0.0461, "pct:3": 0.0775, "pct:5": 0.1183, "pos*": 0.0500},
	"reorder_5":       {"random": 0.0018, "pct:2": 0.0061, "pct:3": 0.0110, "pct:5": 0.0126, "pos*": 0.0668},
	"queue":           {"random": 0.9999, "pct:2": 0.0068, "pct:3": 0.1415, "pct:5": 0.3511, "pos*": 0.9999},
	"reorder_4":       {"random": 0.0074, "pct:2": 0.0118, "pct:3": 0.0206, "pct:5": 0.0294, "pos*": 0.0795},
	"reorder_3":       {"random": 0.0246, "pct:2": 0.0255, "pct:3": 0.0457, "pct:5": 0.0660, "pos*": 0.0997},
	"wronglock":       {"random": 0.3272, "pct:2": 0.0351, "pct:3": 0.0630, "pct:5": 0.1142, "pos*": 0.4227},
	"wronglock_3":     {"random": 0.3095, "pct:2": 0.0683, "pct:3": 0.1137, "pct:5": 0.1741, "pos*": 0.3625},
	"twostage":        {"random": 0.0806, "pct:2": 0.1213, "pct:3": 0.1959, "pct:5": 0.2804, "pos*": 0.1212},
	"deadlock01":      {"random": 0.3668, "pct:2": 0.0904, "pct:3": 0.1714, "pct:5": 0.3160, "pos*": 0.3315},
	"account":         {"random": 0.1173, "pct:2": 0.2140, "pct:3": 0.1929, "pct:5": 0.1628, "pos*": 0.3367},
	"circular_buffer": {"random": 0.9159, "pct:2": 0.1301, "pct:3": 0.2888, "pct:5": 0.5180, "pos*": 0.9369},
	"stack":           {"random": 0.6051, "pct:2": 0.2800, "pct:3": 0.4060, "pct:5": 0.5365, "pos*": 0.6210},
}

// thesisTrials is the thesis's trials per case: a case it never hit counts
// as 1/thesisTrials in its geo-means.
const thesisTrials = 10000

// writeSCTPaper prints the cases of the thesis's Table 3.3 beside its
// figures (thesis / ours) for the strategies both have, with both sides'
// geo-means over those cases and pos*'s ratios to the best PCT and to random
// walk on each side.
func writeSCTPaper(w io.Writer, r *sct.Report) {
	var strats []string
	for _, s := range r.Strategies {
		if _, ok := thesisTable33["WSQ"][s]; ok {
			strats = append(strats, s)
		}
	}
	var rows []int
	for i := range r.Results {
		if _, ok := thesisTable33[r.Results[i].Case.Name]; ok {
			rows = append(rows, i)
		}
	}
	if len(strats) == 0 || len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSide by side with thesis Table 3.3 (thesis / ours), on the %d of its cases this run has:\n\n", len(rows))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "case\t")
	for _, s := range strats {
		fmt.Fprintf(tw, "%s\t", s)
	}
	fmt.Fprintln(tw)
	thesis, ours := map[string]float64{}, map[string]float64{}
	for _, i := range rows {
		res := &r.Results[i]
		fmt.Fprintf(tw, "%s\t", res.Case.Name)
		for _, s := range strats {
			t, o := thesisTable33[res.Case.Name][s], r.Ratio(res, s)
			fmt.Fprintf(tw, "%s / %s\t", sctRatio(t), sctRatio(o))
			thesis[s] += math.Log(max(t, 1.0/thesisTrials))
			ours[s] += math.Log(max(o, 1/float64(r.Trials)))
		}
		fmt.Fprintln(tw)
	}
	n := float64(len(rows))
	for _, m := range []map[string]float64{thesis, ours} {
		for s := range m {
			m[s] = math.Exp(m[s] / n)
		}
	}
	fmt.Fprint(tw, "geo-mean\t")
	for _, s := range strats {
		fmt.Fprintf(tw, "%.4f / %.4f\t", thesis[s], ours[s])
	}
	fmt.Fprintln(tw)
	tw.Flush()
	if _, ok := ours["pos*"]; !ok {
		return
	}
	for _, side := range []struct {
		name string
		g    map[string]float64
	}{{"thesis", thesis}, {"ours", ours}} {
		best := 0.0
		for _, s := range []string{"pct:2", "pct:3", "pct:5"} {
			best = max(best, side.g[s])
		}
		fmt.Fprintf(w, "on these cases, %s: pos* %.2f× best pct", side.name, side.g["pos*"]/best)
		if rw, ok := side.g["random"]; ok {
			fmt.Fprintf(w, ", %.2f× random", side.g["pos*"]/rw)
		}
		fmt.Fprintln(w)
	}
}
