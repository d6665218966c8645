package strategy

// Estimating reports whether PCT estimates its step bound from earlier
// iterations (no K given).
func (p *PCT) Estimating() bool { return p.k == 0 }

// SetSteps sets the step count the estimate starts from, replacing what
// earlier iterations of this instance saw. A runtime with parallel workers
// calls it before every iteration with the largest step count of a fixed set
// of earlier iterations (its epochs), so that the bound, and the schedule, do
// not depend on which worker ran what.
func (p *PCT) SetSteps(max int) { p.maxSteps = max }

// Steps returns the number of decisions PCT made in its last iteration: the
// steps its change points are drawn among (local ops and ops a wrapper
// decided are not counted). Runtimes feed the largest to SetSteps.
func (p *PCT) Steps() int { return p.step }

// FindPCT returns the PCT inside s (s itself, or the strategy a wrapper such
// as "+ca" wraps), or nil.
func FindPCT(s Strategy) *PCT {
	for {
		if p, ok := s.(*PCT); ok {
			return p
		}
		w, ok := s.(interface{ Inner() Strategy })
		if !ok {
			return nil
		}
		s = w.Inner()
	}
}
