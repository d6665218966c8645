package sct

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
)

// PlainCase is one case's outcome as plain Go (bench sct -plain).
type PlainCase struct {
	Case Case
	// Hits counts, per strategy, the failing schedules of the plain test
	// (counting mode: every failure). Kind and Location are those of its
	// lowest failing schedule, Report its report.
	Hits                   map[string]int
	Kind, Location, Report map[string]string
}

// PlainReport is what bench sct -plain measured: the plain-Go version of
// each case beside the csync version (CSync, run with the same trials),
// Cases in the order of CSync's.
type PlainReport struct {
	CSync *Report
	Cases []PlainCase
}

// Side returns the plain version's ratios as a side of a side-by-side
// table.
func (r *PlainReport) Side() hitratio.Side {
	return hitratio.Side{Name: "plain", Trials: r.CSync.Trials, Ratio: func(c, s string) (float64, bool) {
		for i := range r.Cases {
			if r.Cases[i].Case.Name == c {
				n, ok := r.Cases[i].Hits[s]
				return float64(n) / float64(r.CSync.Trials), ok
			}
		}
		return 0, false
	}}
}

// tables returns the side-by-side tables: plain / csync / thesis on the
// strategies the thesis has (none for the fixed variants), and plain /
// csync on the others.
func (r *PlainReport) tables() (thesis, others *hitratio.SideBySide) {
	cs := r.CSync
	names := cs.Matrix.Cases
	thesis = &hitratio.SideBySide{}
	if !cs.Fixed {
		thesis = hitratio.NewSideBySide(names, cs.Strategies, r.Side(), cs.Side("csync"), ThesisSide())
	}
	var rest []string
	for _, s := range cs.Strategies {
		if !slices.Contains(thesis.Strategies, s) {
			rest = append(rest, s)
		}
	}
	return thesis, hitratio.NewSideBySide(names, rest, r.Side(), cs.Side("csync"))
}

// WritePlainTable prints the plain and csync ratios of every case and
// strategy, beside the thesis's where it has them, with the geo-means,
// their comparisons, and a note for every lowest failing schedule that
// failed otherwise than intended.
func WritePlainTable(w io.Writer, r *PlainReport) {
	cs := r.CSync
	variant := "buggy variants: a hit is a failing schedule of the plain test, the case's intended failure of the csync version"
	if cs.Fixed {
		variant = "fixed variants: a hit is any failure (all must be 0)"
	}
	fmt.Fprintf(w, "The suite as plain Go through the rewriter beside the csync version, %d trials per case and strategy; %s.\n", cs.Trials, variant)
	thesis, others := r.tables()
	if !thesis.Empty() {
		fmt.Fprintf(w, "Each cell: plain / csync / thesis (Table 3.3, %d trials). %s\n\n", ThesisTrials, thesis.Note())
		thesis.Table("case", ratioStyle).Write(w)
	}
	if !others.Empty() {
		if !thesis.Empty() {
			fmt.Fprint(w, "\nStrategies without a thesis figure. ")
		}
		fmt.Fprintf(w, "Each cell: plain / csync. %s\n\n", others.Note())
		others.Table("case", ratioStyle).Write(w)
	}
	if !thesis.Empty() {
		plainSummary(w, thesis)
	}
	for i := range r.Cases {
		c := &r.Cases[i]
		for _, s := range cs.Strategies {
			if k := c.Kind[s]; k != "" && (cs.Fixed || k != c.Case.Kind) {
				fmt.Fprintf(w, "note: plain %s with %s: the lowest failing schedule failed by %s at %s", c.Case.Name, s, k, c.Location[s])
				if !cs.Fixed {
					fmt.Fprintf(w, ", not by %s", c.Case.Kind)
				}
				fmt.Fprintln(w)
			}
		}
	}
}

// plainSummary prints random walk's geo-means on the three sides of t
// (plain, csync, thesis) and pos*'s ratios to the best PCT and to random
// walk on each.
func plainSummary(w io.Writer, t *hitratio.SideBySide) {
	has := func(s string) bool { return slices.Contains(t.Strategies, s) }
	fmt.Fprintln(w)
	if has("random") {
		fmt.Fprintf(w, "random walk geo-mean: plain %.4f, csync %.4f, thesis %.4f\n", t.Geomean(0, "random"), t.Geomean(1, "random"), t.Geomean(2, "random"))
	}
	if !has("pos*") {
		return
	}
	for k, side := range t.Sides {
		pos := t.Geomean(k, "pos*")
		fmt.Fprintf(w, "pos* geo-mean, %s: %.4f", side.Name, pos)
		best, bestName := 0.0, ""
		for _, s := range []string{"pct:2", "pct:3", "pct:5"} {
			if !has(s) {
				continue
			}
			if g := t.Geomean(k, s); g > best {
				best, bestName = g, s
			}
		}
		if bestName != "" {
			fmt.Fprintf(w, " = %.2f× best pct (%s)", pos/best, bestName)
		}
		if has("random") {
			fmt.Fprintf(w, ", %.2f× random", pos/t.Geomean(k, "random"))
		}
		fmt.Fprintln(w)
	}
}

type plainJSON struct {
	Trials  int                           `json:"trials"`
	Fixed   bool                          `json:"fixed"`
	Cases   []plainCaseJSON               `json:"cases"`
	Geomean map[string]map[string]float64 `json:"geomean"` // plain, csync, thesis -> strategy -> geo-mean
}

type plainCaseJSON struct {
	Name   string             `json:"name"`
	Plain  map[string]float64 `json:"plain"`
	CSync  map[string]float64 `json:"csync"`
	Thesis map[string]float64 `json:"thesis,omitempty"`
	Kind   map[string]string  `json:"plain_kind,omitempty"` // of the lowest failing schedule
}

// WritePlainJSON prints one JSON object: trials, per case the plain, csync
// and thesis ratios, and the geo-means of each side, as the table has them.
func WritePlainJSON(w io.Writer, r *PlainReport) error {
	cs := r.CSync
	out := plainJSON{Trials: cs.Trials, Fixed: cs.Fixed, Cases: []plainCaseJSON{},
		Geomean: map[string]map[string]float64{"plain": {}, "csync": {}}}
	thesis, others := r.tables()
	for _, t := range []*hitratio.SideBySide{thesis, others} {
		for _, s := range t.Strategies {
			for k, side := range t.Sides {
				if out.Geomean[side.Name] == nil {
					out.Geomean[side.Name] = map[string]float64{}
				}
				out.Geomean[side.Name][s] = t.Geomean(k, s)
			}
		}
	}
	plain := r.Side()
	for i := range r.Cases {
		c := &r.Cases[i]
		j := plainCaseJSON{Name: c.Case.Name, Plain: map[string]float64{}, CSync: map[string]float64{}}
		for k, s := range cs.Strategies {
			j.Plain[s], _ = plain.Ratio(c.Case.Name, s)
			j.CSync[s] = cs.Ratio(i, k)
			if slices.Contains(thesis.Strategies, s) {
				if j.Thesis == nil {
					j.Thesis = map[string]float64{}
				}
				j.Thesis[s] = ThesisTable33[c.Case.Name][s]
			}
			if kind := c.Kind[s]; kind != "" {
				if j.Kind == nil {
					j.Kind = map[string]string{}
				}
				j.Kind[s] = kind
			}
		}
		out.Cases = append(out.Cases, j)
	}
	return json.NewEncoder(w).Encode(out)
}
