package coverage

// Planner picks ordering constraints among the pairs of the original order
// not yet observed both ways. It sweeps the pairs by distance in the original
// order (neighbours first, then events two apart, ...), so that its state is a
// cursor, not a set: a pair that could not be transposed is tried again only
// in the next sweep (Round). Given a Precedence, it passes over the pairs
// predicted ordered: their constraint could only time out.
type Planner struct {
	Round, D, I int // cursor: next pair is (original[I], original[I+D])
	// MaxRounds, when positive, ends the planning after that many sweeps:
	// a pair not transposed by then is taken as infeasible (each failed try
	// costs a time-out).
	MaxRounds int
	// Busy, if set, reports the constraints of runs under way: the planner
	// passes over them (what those runs show decides whether they are tried
	// again), without counting them as skipped.
	Busy func(Constraint) bool

	done bool
}

// Constraint asks that event Then not pass before event First.
type Constraint struct{ First, Then uint32 }

// Next returns up to k constraints for the next run, advancing the cursor,
// and how many pairs it passed over on the way because p (if not nil)
// predicts them ordered (once per sweep that plans something past them).
//
// It returns none when there is no original order yet, when every pair is
// observed unordered, predicted ordered or busy, or after MaxRounds sweeps;
// Done tells whether nothing will come back (no busy pair was passed over in
// a sweep still allowed). A scan that
// plans nothing counts nothing and, unless it reached MaxRounds, leaves the
// cursor where it was, so that asking again, once runs under way have
// finished, resumes the same sweep.
func (pl *Planner) Next(t *Transpositions, k int, p *Precedence) (out []Constraint, skipped int) {
	n := len(t.original)
	pl.done = false
	if n == 0 {
		return nil, 0
	}
	total := n * (n - 1) / 2
	if pl.D < 1 {
		pl.D = 1
	}
	cursor := [3]int{pl.Round, pl.D, pl.I}
	busy, limit := false, false
	for scanned := 0; len(out) < k && scanned < total; scanned++ {
		if pl.D >= n {
			pl.Round++
			pl.D, pl.I = 1, 0
		}
		if pl.MaxRounds > 0 && pl.Round >= pl.MaxRounds {
			limit = true
			break
		}
		a, b := t.original[pl.I], t.original[pl.I+pl.D]
		pl.I++
		if pl.I+pl.D >= n {
			pl.D++
			pl.I = 0
		}
		// a came first in the original; the constraint asks for b first.
		c := Constraint{First: b, Then: a}
		switch {
		case t.Observed(a, b):
		case p != nil && p.Before(a, b):
			skipped++
		case pl.Busy != nil && pl.Busy(c):
			busy = true
		default:
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		if !limit {
			pl.Round, pl.D, pl.I = cursor[0], cursor[1], cursor[2]
		}
		pl.done = !busy
		return nil, 0
	}
	return out, skipped
}

// Done reports whether the last Next, with an original order, found
// nothing to plan and no busy pair that could come back.
func (pl *Planner) Done() bool { return pl.done }
