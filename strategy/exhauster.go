package strategy

// Exhauster is implemented by systematic strategies (dfs) that enumerate a
// finite space of schedules across iterations. After End, Exhausted reports
// whether every schedule has been explored: the runtime then stops and reports
// that the whole space was covered without failure, which is a proof for the
// test as written (within the strategy's bound, if any).
type Exhauster interface {
	Exhausted() bool
}

// AsExhauster returns s as an Exhauster if it is one, or if it wraps one (as
// "dfs+ca" does), and false otherwise.
func AsExhauster(s Strategy) (Exhauster, bool) {
	for {
		if e, ok := s.(Exhauster); ok {
			return e, true
		}
		w, ok := s.(interface{ Inner() Strategy })
		if !ok {
			return nil, false
		}
		s = w.Inner()
	}
}
