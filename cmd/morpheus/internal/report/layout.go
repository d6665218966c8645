package report

import "github.com/morpheus-go/morpheus/trace"

// item is a row of the diagram or the step table: a step, or the band that
// stands for the middle of a fold (a run repeating one cycle), whose first
// and last cycles are shown as steps around it.
type item struct {
	step step
	fold *trace.Fold // the band of a fold; step is then its first hidden step
}

// layout lists the rows that show all (the steps of t): every step, except
// that each fold of t keeps only its first and last cycles, with a band
// between them. limit > 0 keeps the last limit rows.
func layout(t *trace.Trace, all []step, folds []trace.Fold, limit int) []item {
	var out []item
	k := 0
	for _, s := range all {
		for k < len(folds) && folds[k].End <= s.ev {
			k++
		}
		if k < len(folds) && s.ev >= folds[k].Start {
			f := &folds[k]
			i := s.n - f.FirstStep // position in the fold
			switch {
			case i < f.Period || i >= f.Steps()-f.Period:
			case i == f.Period:
				out = append(out, item{step: s, fold: f})
				continue
			default:
				continue
			}
		}
		out = append(out, item{step: s})
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}

// foldsOf returns the folds of t worth folding: those that hide at least
// one cycle between the two they show.
func foldsOf(t *trace.Trace) []trace.Fold {
	var out []trace.Fold
	for _, f := range trace.Folds(t, 0, -1) {
		if f.Count > 2 {
			out = append(out, f)
		}
	}
	return out
}
