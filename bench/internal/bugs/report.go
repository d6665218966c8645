package bugs

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// ratioStyle prints a ratio with four decimals, or in scientific notation
// when that would hide it; — for no hit.
var ratioStyle = hitratio.Style{Zero: "—", Sci: true}

// WriteTables prints what Run measured on the buggy variants: the hit
// ratios with their geo-means, the wall time to the first hit, what
// conflict analysis saw, the side-by-side with Morpheus Table 3, and how
// the default strategy and pos+ca did.
func WriteTables(w io.Writer, m *hitratio.Matrix, seed uint64) {
	fmt.Fprintf(w, "Hit ratios (hits / iterations), %s per scenario and strategy, seed %d; — = no hit.\n\n", plural.N(m.Trials, "iteration"), seed)
	m.RatioTable([]string{"scenario"}, nil, ratioStyle).Write(w)
	fmt.Fprintf(w, "\nGeo-means count a scenario without hits as 1/%d.\n", m.Trials)

	fmt.Fprintf(w, "\nWall-clock seconds to the first hit, from the start of each run (all cores); — = no hit in %s.\n\n", plural.N(m.Trials, "iteration"))
	m.Table([]string{"scenario"}, nil, func(c hitratio.Cell) string {
		if c.FirstHit < 0 {
			return "—"
		}
		return fmt.Sprintf("%.3f", c.FirstHit.Seconds())
	}).Write(w)
	writeSizes(w, m)
	writePaper(w, m)

	// The paper's two headline comparisons, when their columns ran.
	ratio := func(a, b string) (float64, bool) {
		ja, jb := m.Column(a), m.Column(b)
		if ja < 0 || jb < 0 {
			return 0, false
		}
		return m.Geomean(ja) / m.Geomean(jb), true
	}
	fmt.Fprintln(w)
	if v, ok := ratio("pos+ca", "pct:5"); ok {
		fmt.Fprintf(w, "pos+ca / pct:5 geo-mean: %.2f×\n", v)
	}
	if v, ok := ratio("pos+ca", "pos"); ok {
		fmt.Fprintf(w, "conflict analysis on pos: %+.0f%%\n", (v-1)*100)
	}
	targets := []string{morpheus.DefaultStrategy}
	if !slices.Contains(targets, "pos+ca") {
		targets = append(targets, "pos+ca")
	}
	for _, s := range targets {
		j := m.Column(s)
		if j < 0 {
			continue
		}
		found, worst := 0, time.Duration(0)
		for i := range m.Cases {
			if c := m.Cells[i][j]; c.Hits > 0 {
				found++
				worst = max(worst, c.FirstHit)
			}
		}
		fmt.Fprintf(w, "%s: found %d of %d scenarios; slowest first hit %.3f s\n", s, found, len(m.Cases), worst.Seconds())
	}
}

// writeSizes prints, per scenario, what conflict analysis saw in an
// iteration under the default strategy, or else the first +ca strategy that
// ran (Morpheus Table 4's columns): ops, ops in a conflict, and their share.
// Nothing without a +ca column.
func writeSizes(w io.Writer, m *hitratio.Matrix) {
	j := m.Column(morpheus.DefaultStrategy)
	if j < 0 || !strings.HasSuffix(morpheus.DefaultStrategy, "+ca") {
		j = slices.IndexFunc(m.Strategies, func(s string) bool { return strings.HasSuffix(s, "+ca") })
	}
	if j < 0 {
		return
	}
	fmt.Fprintf(w, "\nConflict analysis under %s (Morpheus Table 4's columns; mean per analysed iteration): ops, ops in a\n"+
		"conflict and their share, false negatives (predicted independent, in a conflict), false positives (left to\n"+
		"the strategy, in no conflict).\n\n", m.Strategies[j])
	t := &hitratio.Table{Header: []string{"scenario", "ops", "conflicting", "share", "FNs", "FPs"}}
	for i, name := range m.Cases {
		st := m.Cells[i][j].CA
		if st == nil || st.Iterations == 0 {
			t.Add(name, "—", "—", "—", "—", "—")
			continue
		}
		n := float64(st.Iterations)
		t.Add(name, fmt.Sprintf("%.1f", float64(st.Ops)/n), fmt.Sprintf("%.1f", float64(st.Conflicts)/n),
			fmt.Sprintf("%.1f%%", 100*float64(st.Conflicts)/float64(max(st.Ops, 1))),
			fmt.Sprintf("%.2f", float64(st.FalseNegatives)/n), fmt.Sprintf("%.1f", float64(st.FalsePositives)/n))
	}
	t.Write(w)
	fmt.Fprintln(w, "(Morpheus Table 4, {P, PC} signatures: gproc-1 6593.4 ops, 325.6 conflicting, 0.54 FNs, 526.3 FPs;\n"+
		" mnesia-2 10018.8, 628.3, 1.13, 1442.7)")
}

// WriteJSON prints one JSON object: trials, per scenario the hit ratio and
// the wall time to the first hit of every strategy, and the geo-means.
func WriteJSON(w io.Writer, m *hitratio.Matrix) error {
	return json.NewEncoder(w).Encode(m.Summary(hitratio.FirstHitSeconds))
}

// WriteFixed prints the failures of the fixed variants (a table, or JSON if
// asJSON); there must be none. Otherwise it prints each one's report (with
// the table, or to stderr beside the JSON) and returns an error.
func WriteFixed(w, stderr io.Writer, m *hitratio.Matrix, asJSON bool) error {
	total := 0
	for _, row := range m.Cells {
		for _, c := range row {
			total += c.Failures
		}
	}
	failures := func(i int) map[string]int {
		f := map[string]int{}
		for j, s := range m.Strategies {
			f[s] = m.Cells[i][j].Failures
		}
		return f
	}
	if asJSON {
		type caseJSON struct {
			Name     string         `json:"name"`
			Failures map[string]int `json:"failures"`
		}
		out := struct {
			Trials   int        `json:"trials"`
			Fixed    bool       `json:"fixed"`
			Cases    []caseJSON `json:"cases"`
			Failures int        `json:"failures"`
		}{Trials: m.Trials, Fixed: true, Failures: total}
		for i, name := range m.Cases {
			out.Cases = append(out.Cases, caseJSON{Name: name, Failures: failures(i)})
		}
		if err := json.NewEncoder(w).Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "Fixed variants: failing iterations of %d per scenario and strategy (all must be 0).\n\n", m.Trials)
		m.Table([]string{"scenario"}, nil, func(c hitratio.Cell) string { return fmt.Sprint(c.Failures) }).Write(w)
	}
	if total == 0 {
		if !asJSON {
			fmt.Fprintf(w, "\nno failure: every fixed variant passed.\n")
		}
		return nil
	}
	rw := w
	if asJSON {
		rw = stderr
	}
	for i, name := range m.Cases {
		for j, s := range m.Strategies {
			if f := m.Cells[i][j].Failure; f != nil {
				fmt.Fprintf(rw, "\n%s under %s:\n%s", name, s, f.Report())
			}
		}
	}
	return fmt.Errorf("%d failing iterations of fixed variants: the scenarios are broken", total)
}
