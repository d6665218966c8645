package sct

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
)

// ratioStyle formats a hit ratio as the thesis does, 0 as "0".
var ratioStyle = hitratio.Style{Zero: "0"}

// WriteTable prints the hit ratios of the report with their geo-means; for
// the buggy variants also pos*'s against the best PCT and random walk, and
// the side-by-side with the thesis's Table 3.3.
func WriteTable(w io.Writer, r *Report) {
	variant := "buggy variants: hit = the case's intended failure"
	if r.Fixed {
		variant = "fixed variants: hit = any failure (all must be 0)"
	}
	fmt.Fprintf(w, "Bug hit ratios, %d trials per case and strategy; %s.\n", r.Trials, variant)
	fmt.Fprintf(w, "Geo-mean counts a case never hit as 1/%d. [threads/steps] as in the thesis.\n\n", r.Trials)
	r.RatioTable([]string{"case", "size"}, func(i int) []string {
		c := r.Cases[i]
		size := fmt.Sprintf("[%d/%d]", c.Threads, c.Steps)
		if c.Steps == 0 {
			size = fmt.Sprintf("[%d/-]", c.Threads)
		}
		return []string{c.Name, size}
	}, ratioStyle).Write(w)
	if r.Fixed {
		return
	}
	for _, pos := range []string{"pos*", "pos*+ca"} {
		jp := r.Column(pos)
		if jp < 0 {
			continue
		}
		suffix := strings.TrimPrefix(pos, "pos*") // "" or "+ca": compare like with like
		best, bestName := 0.0, ""
		for j, s := range r.Strategies {
			if strings.HasPrefix(s, "pct:") && strings.HasSuffix(s, "+ca") == (suffix == "+ca") {
				if g := r.Geomean(j); g > best {
					best, bestName = g, s
				}
			}
		}
		g := r.Geomean(jp)
		fmt.Fprintf(w, "\n%s geo-mean %.4f:", pos, g)
		if bestName != "" {
			fmt.Fprintf(w, "  %.2f× best pct (%s)", g/best, bestName)
		}
		if rw := "random" + suffix; r.Column(rw) >= 0 {
			fmt.Fprintf(w, "  %.2f× %s", g/r.Geomean(r.Column(rw)), rw)
		}
		missed := 0
		for i := range r.Cells {
			if r.Cells[i][jp].Hits == 0 {
				missed++
			}
		}
		fmt.Fprintf(w, "  cases missed: %d", missed)
	}
	fmt.Fprintln(w, "\n(thesis Table 3.3, 32 cases: pos* 0.1795 = 2.6× best pct 0.0694, 4.7× random 0.0380)")
	writePaper(w, r)
}

// WriteJSON prints one JSON object: trials, per case the hit ratio of every
// strategy, and the geo-means.
func WriteJSON(w io.Writer, r *Report) error {
	return json.NewEncoder(w).Encode(r.Summary(0))
}
