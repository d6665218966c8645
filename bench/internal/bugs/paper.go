package bugs

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
)

// Table3 is Morpheus's Table 3 (ASPLOS'20) for the bugs this suite
// re-creates, by strategy as bench bugs names them: hit ratios over
// Table3Trials trials of the original Erlang tests.
var Table3 = map[string]map[string]float64{
	"gproc-1":  {"random": 0, "random+ca": 0.0001, "pct:5": 0.0015, "pct:5+ca": 0.0018, "pos": 0.0031, "pos+ca": 0.0106, "pos*": 0.0008, "pos*+ca": 0.0023},
	"locks-1":  {"random": 0.0042, "random+ca": 0.0312, "pct:5": 0.0895, "pct:5+ca": 0.1164, "pos": 0.1521, "pos+ca": 0.2087, "pos*": 0.1562, "pos*+ca": 0.2239},
	"ms-1":     {"random": 0, "random+ca": 0.0061, "pct:5": 0.3000, "pct:5+ca": 0.2833, "pos": 0.1489, "pos+ca": 0.2420, "pos*": 0.1505, "pos*+ca": 0.2478},
	"mnesia-2": {"random": 0, "random+ca": 0.0008, "pct:5": 0.0075, "pct:5+ca": 0.0078, "pos": 0.0117, "pos+ca": 0.0253, "pos*": 0.0104, "pos*+ca": 0.0254},
}

// Table3Trials is the trials per bug and strategy behind Table3.
const Table3Trials = 10000

// PaperName returns the name of the bug of Morpheus Table 3 a scenario
// re-creates ("ms-1+w24" -> "ms-1"), or "" if the table does not have it.
func PaperName(scenario string) string {
	base, _, _ := strings.Cut(scenario, "+")
	if _, ok := Table3[base]; ok {
		return base
	}
	return ""
}

// paperSide is Table3 as a side of a side-by-side table.
func paperSide() hitratio.Side {
	return hitratio.Side{Name: "paper", Trials: Table3Trials, Ratio: func(c, s string) (float64, bool) {
		v, ok := Table3[PaperName(c)][s]
		return v, ok
	}}
}

// writePaper prints the scenarios that re-create bugs of Morpheus Table 3
// beside the paper's figures, with both sides' geometric means over those
// bugs (floored alike, at 1 over the smaller number of trials) and the two
// comparisons of the paper's abstract: pos+ca over pct:5, and conflict
// analysis on pos.
func writePaper(w io.Writer, m *hitratio.Matrix) {
	t := hitratio.NewSideBySide(m.Cases, m.Strategies, paperSide(), m.Side("ours"))
	if t.Empty() {
		return
	}
	fmt.Fprintf(w, "\nSide by side with Morpheus Table 3 (paper / ours), on the %d of its bugs this run has:\n\n", len(t.Cases))
	t.Table("scenario", hitratio.Style{Zero: "0", Sci: true}).Write(w)
	fmt.Fprintln(w, t.Note())
	has := func(s string) bool { return slices.Contains(t.Strategies, s) }
	ratio := func(k int, a, b string) float64 { return t.Geomean(k, a) / t.Geomean(k, b) }
	if has("pos+ca") && has("pct:5") {
		fmt.Fprintf(w, "on these bugs: pos+ca / pct:5 paper %.2f×, ours %.2f×", ratio(0, "pos+ca", "pct:5"), ratio(1, "pos+ca", "pct:5"))
		if has("pos") {
			fmt.Fprintf(w, "; conflict analysis on pos paper %+.0f%%, ours %+.0f%%", (ratio(0, "pos+ca", "pos")-1)*100, (ratio(1, "pos+ca", "pos")-1)*100)
		}
		fmt.Fprintln(w)
	}
}
