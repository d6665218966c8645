package micro

import "math"

// Space is the exact analysis of a program: its partial orders, and for each
// the probability that random walk samples it.
type Space struct {
	Program   *Program
	Schedules int64 // complete schedules (total orders)
	// MaxConflicts is the largest number of direct conflicts in a schedule
	// (thesis §3.4: an event that runs while a dependent event of another
	// thread is enabled), which bounds the priority reassignments of POS*.
	MaxConflicts int
	// MaxDepth is the largest, over the partial orders, of the fewest
	// preemptions a schedule of that partial order needs (Table 3.1's "max
	// depth"): PCT needs that many change points to reach them all.
	MaxDepth int
	// Per partial order, numbered in the order the enumeration finds them:
	RW    []float64 // exact probability under random walk
	Depth []int     // fewest preemptions
	Masks []uint64  // canonical form

	index map[uint64]int32
	form  *form
}

// POs returns the number of partial orders.
func (s *Space) POs() int { return len(s.Masks) }

// Lookup returns the number of the partial order with canonical form mask.
func (s *Space) Lookup(mask uint64) (int, bool) {
	i, ok := s.index[mask]
	return int(i), ok
}

// RWCoverage returns random walk's exact coverage: the probability of its
// least likely partial order.
func (s *Space) RWCoverage() float64 {
	m := math.Inf(1)
	for _, p := range s.RW {
		m = min(m, p)
	}
	return m
}
