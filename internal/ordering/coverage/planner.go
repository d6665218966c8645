package coverage

// Planner picks ordering constraints among the pairs of the original order
// not yet observed both ways. It sweeps the pairs by distance in the original
// order (neighbours first, then events two apart, ...), so that its state is a
// cursor, not a set: a pair that could not be transposed is tried again only
// in the next sweep (Round).
type Planner struct {
	Round, D, I int // cursor: next pair is (original[I], original[I+D])
	// MaxRounds, when positive, ends the planning after that many sweeps:
	// a pair not transposed by then is taken as infeasible, and later runs
	// carry no constraint (each failed try costs a time-out).
	MaxRounds int
}

// Constraint asks that event Then not pass before event First.
type Constraint struct{ First, Then uint32 }

// Next returns up to k constraints for the next run, advancing the cursor;
// none when every pair of the original order was observed unordered (or
// there is no original order yet).
func (pl *Planner) Next(t *Transpositions, k int) []Constraint {
	n := len(t.original)
	total := n * (n - 1) / 2
	var out []Constraint
	if pl.D < 1 {
		pl.D = 1
	}
	for scanned := 0; len(out) < k && scanned < total; scanned++ {
		if pl.D >= n {
			pl.Round++
			pl.D, pl.I = 1, 0
		}
		if pl.MaxRounds > 0 && pl.Round >= pl.MaxRounds {
			break
		}
		a, b := t.original[pl.I], t.original[pl.I+pl.D]
		pl.I++
		if pl.I+pl.D >= n {
			pl.D++
			pl.I = 0
		}
		if !t.Observed(a, b) {
			// a came first in the original; ask for b first.
			out = append(out, Constraint{First: b, Then: a})
		}
	}
	return out
}
