package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// geomeanFloor is the geometric mean of v, a value below floor (a case
// never hit) counting as floor.
func geomeanFloor(v []float64, floor float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range v {
		sum += math.Log(max(x, floor))
	}
	return math.Exp(sum / float64(len(v)))
}

// thesisGeomean is the geo-mean of the thesis's figures for a strategy
// over the cases of r, or false if it has none for one of them.
func (r *sctPlainReport) thesisGeomean(strategy string) (float64, bool) {
	var v []float64
	for i := range r.Cases {
		t, ok := thesisTable33[r.Cases[i].Case.Name][strategy]
		if !ok {
			return 0, false
		}
		v = append(v, t)
	}
	return geomeanFloor(v, 1.0/thesisTrials), true
}

func writeSCTPlainTable(w io.Writer, r *sctPlainReport) {
	cs := r.CSync
	variant := "buggy variants: a hit is a failing schedule of the plain test, the case's intended failure of the csync version"
	if cs.Fixed {
		variant = "fixed variants: a hit is any failure (all must be 0)"
	}
	fmt.Fprintf(w, "The suite as plain Go through the rewriter beside the csync version, %d trials per case and strategy; %s.\n", cs.Trials, variant)
	var withThesis, others []string
	for _, s := range cs.Strategies {
		if _, ok := r.thesisGeomean(s); ok && !cs.Fixed {
			withThesis = append(withThesis, s)
		} else {
			others = append(others, s)
		}
	}
	if len(withThesis) > 0 {
		fmt.Fprintf(w, "Each cell: plain / csync / thesis (Table 3.3, %d trials). Geo-means count a case never hit as 1/%d (thesis: 1/%d).\n\n", thesisTrials, cs.Trials, thesisTrials)
		r.table(w, withThesis, true)
	}
	if len(others) > 0 {
		if len(withThesis) > 0 {
			fmt.Fprint(w, "\nStrategies without a thesis figure. ")
		}
		fmt.Fprintf(w, "Each cell: plain / csync. Geo-means count a case never hit as 1/%d.\n\n", cs.Trials)
		r.table(w, others, false)
	}
	if !cs.Fixed {
		r.summary(w)
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

// table prints the cases by strategies, with the thesis's figures if
// thesis.
func (r *sctPlainReport) table(w io.Writer, strats []string, thesis bool) {
	cs := r.CSync
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "case\t%s\t\n", strings.Join(strats, "\t"))
	for i := range r.Cases {
		c, res := &r.Cases[i], &cs.Results[i]
		fmt.Fprintf(tw, "%s\t", c.Case.Name)
		for _, s := range strats {
			fmt.Fprintf(tw, "%s / %s", sctRatio(r.Ratio(c, s)), sctRatio(cs.Ratio(res, s)))
			if thesis {
				fmt.Fprintf(tw, " / %s", sctRatio(thesisTable33[c.Case.Name][s]))
			}
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "geo-mean\t")
	for _, s := range strats {
		fmt.Fprintf(tw, "%.4f / %.4f", r.Geomean(s), cs.Geomean(s))
		if thesis {
			g, _ := r.thesisGeomean(s)
			fmt.Fprintf(tw, " / %.4f", g)
		}
		fmt.Fprint(tw, "\t")
	}
	fmt.Fprintln(tw)
	tw.Flush()
}

// summary prints random walk's geo-means on the three sides and pos*'s
// ratios to the best PCT and to random walk.
func (r *sctPlainReport) summary(w io.Writer) {
	cs := r.CSync
	has := map[string]bool{}
	for _, s := range cs.Strategies {
		has[s] = true
	}
	fmt.Fprintln(w)
	if has["random"] {
		fmt.Fprintf(w, "random walk geo-mean: plain %.4f, csync %.4f", r.Geomean("random"), cs.Geomean("random"))
		if g, ok := r.thesisGeomean("random"); ok {
			fmt.Fprintf(w, ", thesis %.4f", g)
		}
		fmt.Fprintln(w)
	}
	if !has["pos*"] {
		return
	}
	sides := []struct {
		name string
		g    func(string) (float64, bool)
	}{
		{"plain", func(s string) (float64, bool) { return r.Geomean(s), has[s] }},
		{"csync", func(s string) (float64, bool) { return cs.Geomean(s), has[s] }},
		{"thesis", r.thesisGeomean},
	}
	for _, side := range sides {
		pos, ok := side.g("pos*")
		if !ok {
			continue
		}
		fmt.Fprintf(w, "pos* geo-mean, %s: %.4f", side.name, pos)
		best, bestName := 0.0, ""
		for _, s := range []string{"pct:2", "pct:3", "pct:5"} {
			if g, ok := side.g(s); ok && g > best {
				best, bestName = g, s
			}
		}
		if bestName != "" {
			fmt.Fprintf(w, " = %.2f× best pct (%s)", pos/best, bestName)
		}
		if g, ok := side.g("random"); ok {
			fmt.Fprintf(w, ", %.2f× random", pos/g)
		}
		fmt.Fprintln(w)
	}
}

type sctPlainJSON struct {
	Trials  int                           `json:"trials"`
	Fixed   bool                          `json:"fixed"`
	Cases   []sctPlainCaseJSON            `json:"cases"`
	Geomean map[string]map[string]float64 `json:"geomean"` // plain, csync, thesis -> strategy -> geo-mean
}

type sctPlainCaseJSON struct {
	Name   string             `json:"name"`
	Plain  map[string]float64 `json:"plain"`
	CSync  map[string]float64 `json:"csync"`
	Thesis map[string]float64 `json:"thesis,omitempty"`
	Kind   map[string]string  `json:"plain_kind,omitempty"` // of the lowest failing schedule
}

func writeSCTPlainJSON(w io.Writer, r *sctPlainReport) error {
	cs := r.CSync
	out := sctPlainJSON{Trials: cs.Trials, Fixed: cs.Fixed, Cases: []sctPlainCaseJSON{},
		Geomean: map[string]map[string]float64{"plain": {}, "csync": {}}}
	for _, s := range cs.Strategies {
		out.Geomean["plain"][s], out.Geomean["csync"][s] = r.Geomean(s), cs.Geomean(s)
		if g, ok := r.thesisGeomean(s); ok && !cs.Fixed {
			if out.Geomean["thesis"] == nil {
				out.Geomean["thesis"] = map[string]float64{}
			}
			out.Geomean["thesis"][s] = g
		}
	}
	for i := range r.Cases {
		c, res := &r.Cases[i], &cs.Results[i]
		j := sctPlainCaseJSON{Name: c.Case.Name, Plain: map[string]float64{}, CSync: map[string]float64{}}
		for _, s := range cs.Strategies {
			j.Plain[s], j.CSync[s] = r.Ratio(c, s), cs.Ratio(res, s)
			if t, ok := thesisTable33[c.Case.Name][s]; ok && !cs.Fixed {
				if j.Thesis == nil {
					j.Thesis = map[string]float64{}
				}
				j.Thesis[s] = t
			}
			if k := c.Kind[s]; k != "" {
				if j.Kind == nil {
					j.Kind = map[string]string{}
				}
				j.Kind[s] = k
			}
		}
		out.Cases = append(out.Cases, j)
	}
	return json.NewEncoder(w).Encode(out)
}
