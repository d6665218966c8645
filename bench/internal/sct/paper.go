package sct

import (
	"fmt"
	"io"
	"slices"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
)

// ThesisTable33 is the POS thesis's Table 3.3 (SCTBench under Maple,
// ThesisTrials trials a case) for the cases this suite re-creates, by
// strategy as bench sct names them (the thesis's RW, PCT-2, PCT-3, PCT-5
// and POS*).
var ThesisTable33 = map[string]map[string]float64{
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

// ThesisTrials is the thesis's trials per case and strategy.
const ThesisTrials = 10000

// ThesisSide is ThesisTable33 as a side of a side-by-side table.
func ThesisSide() hitratio.Side {
	return hitratio.Side{Name: "thesis", Trials: ThesisTrials, Ratio: func(c, s string) (float64, bool) {
		v, ok := ThesisTable33[c][s]
		return v, ok
	}}
}

// writePaper prints the cases of the thesis's Table 3.3 beside its figures
// (thesis / ours) for the strategies both have, with both sides' geo-means
// over those cases (floored alike, at 1 over the smaller number of trials)
// and pos*'s ratios to the best PCT and to random walk on each side.
func writePaper(w io.Writer, r *Report) {
	t := hitratio.NewSideBySide(r.Matrix.Cases, r.Strategies, ThesisSide(), r.Side("ours"))
	if t.Empty() {
		return
	}
	fmt.Fprintf(w, "\nSide by side with thesis Table 3.3 (thesis / ours), on the %d of its cases this run has:\n\n", len(t.Cases))
	t.Table("case", ratioStyle).Write(w)
	fmt.Fprintln(w, t.Note())
	if !slices.Contains(t.Strategies, "pos*") {
		return
	}
	for k, name := range []string{"thesis", "ours"} {
		best := 0.0
		for _, s := range []string{"pct:2", "pct:3", "pct:5"} {
			if slices.Contains(t.Strategies, s) {
				best = max(best, t.Geomean(k, s))
			}
		}
		pos := t.Geomean(k, "pos*")
		fmt.Fprintf(w, "on these cases, %s: pos* %.2f× best pct", name, pos/best)
		if slices.Contains(t.Strategies, "random") {
			fmt.Fprintf(w, ", %.2f× random", pos/t.Geomean(k, "random"))
		}
		fmt.Fprintln(w)
	}
}
