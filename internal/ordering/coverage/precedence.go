package coverage

// Precedence is what a campaign knows of the precedence relation "<" of the
// Lingua Franca paper's §4.3 (r0 < r1 when r0 passes before r1 in every
// feasible non-error trace): an over-approximation of the ordered pairs, so
// an upper bound on the unordered ones, and the constraints that cannot
// hold: asking for b before a when a < b can only end in the time-out.
//
// Its facts are of two kinds, and rule (1) of the paper derives more:
//
//   - rules: the user's claims (-rule A<B) that no trace has broken. Sound as
//     far as the claims are true.
//   - starvation (a heuristic): in a non-error run, a hit held for a
//     constraint until the time-out let it go, and the events that arrived
//     at the server only after that. None of them arrived in a whole
//     time-out while the held event e waited, so e < x is guessed for each
//     such x. This is the very experiment the constraint "x before e" would
//     have been in that run (up to e's arrival a one-constraint run is
//     unconstrained, and holding e until x or the time-out holds it the same
//     way), so the guess is as good as having tried that constraint once; a
//     run slowed down past the time-out makes it wrong.
//   - rule (1): r0 < r1, r1 < r2 and Always(r1) give r0 < r2, where Always(r)
//     guesses that r occurs in every non-error trace from its having occurred
//     in every one seen so far.
//
// Observed orders refute: a rule whose events a trace had the other way
// round stops counting, and so does a starvation fact, together with every
// other fact of the same hold (the run was slow, or took another path).
//
// The zero value is not usable; NewPrecedence makes one. Its answers depend
// only on the calls made, in their order (no map order, no clock).
type Precedence struct {
	n      int    // events known (ids below n)
	occurs []int  // per event: non-error traces it occurred in
	traces int    // non-error traces observed
	rules  []Edge // live rule facts
	holds  []Starvation

	closure, ruleClosure []bitset // rows[a] has b when a < b; nil when stale
}

// Edge is a fact a < b: A passes before B in every non-error trace.
type Edge struct{ A, B uint32 }

// Starvation is what a hold let go by the time-out showed in run Run: event
// Held was held a whole time-out, and the events Starved arrived at the
// ordering server only after it was let go.
type Starvation struct {
	Run     int
	Held    uint32
	Starved []uint32
}

// NewPrecedence returns an empty relation.
func NewPrecedence() *Precedence { return &Precedence{} }

func (p *Precedence) grow(e uint32) {
	if int(e) >= p.n {
		p.n = int(e) + 1
		for len(p.occurs) < p.n {
			p.occurs = append(p.occurs, 0)
		}
		p.stale()
	}
}

func (p *Precedence) stale() { p.closure, p.ruleClosure = nil, nil }

// Always reports whether event e occurred in every non-error trace observed
// (and there was one).
func (p *Precedence) Always(e uint32) bool {
	return p.traces > 0 && int(e) < p.n && p.occurs[e] == p.traces
}

// Observe takes a non-error trace: it counts the events' occurrences (for
// Always) and drops the facts the trace refutes, each hold with all its
// facts. Only an event's first occurrence counts.
func (p *Precedence) Observe(trace []uint32) {
	pos := make(map[uint32]int, len(trace))
	for i, e := range trace {
		if _, dup := pos[e]; !dup {
			pos[e] = i
			p.grow(e)
		}
	}
	// Always changes for events absent from this trace that were always
	// there before, and for the events of the first trace.
	for e := range p.n {
		_, in := pos[uint32(e)]
		was := p.Always(uint32(e))
		if in {
			p.occurs[e]++
		}
		if was != (in && p.occurs[e] == p.traces+1) {
			p.stale()
		}
	}
	p.traces++
	before := func(a, b uint32) bool {
		pa, oka := pos[a]
		pb, okb := pos[b]
		return oka && okb && pa < pb
	}
	p.refute(before)
}

// refute drops the rules and holds whose facts seen contradicts: seen(a, b)
// reports that a non-error trace had a before b.
func (p *Precedence) refute(seen func(a, b uint32) bool) {
	rules := p.rules[:0]
	for _, r := range p.rules {
		if !seen(r.B, r.A) {
			rules = append(rules, r)
		}
	}
	holds := p.holds[:0]
	for _, h := range p.holds {
		if !h.refutedBy(seen) {
			holds = append(holds, h)
		}
	}
	if len(rules) != len(p.rules) || len(holds) != len(p.holds) {
		p.stale()
	}
	clear(p.rules[len(rules):])
	clear(p.holds[len(holds):])
	p.rules, p.holds = rules, holds
}

func (h Starvation) refutedBy(seen func(a, b uint32) bool) bool {
	for _, x := range h.Starved {
		if seen(x, h.Held) {
			return true
		}
	}
	return false
}

// Starved adds the facts of a hold, Held < x for every x in Starved, unless
// seen (a non-error trace had a before b) already refutes one of them: then
// the hold is not taken at all, and Starved reports false.
func (p *Precedence) Starved(h Starvation, seen func(a, b uint32) bool) bool {
	if len(h.Starved) == 0 || h.refutedBy(seen) {
		return false
	}
	p.grow(h.Held)
	for _, x := range h.Starved {
		p.grow(x)
	}
	h.Starved = append([]uint32(nil), h.Starved...)
	p.holds = append(p.holds, h)
	p.stale()
	return true
}

// SetRules replaces the rule facts (the rules not broken so far, with
// their events' ids).
func (p *Precedence) SetRules(rules []Edge) {
	if equalEdges(rules, p.rules) {
		return
	}
	p.rules = append(p.rules[:0], rules...)
	for _, r := range rules {
		p.grow(r.A)
		p.grow(r.B)
	}
	p.stale()
}

func equalEdges(a, b []Edge) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Holds is how many holds' facts are live.
func (p *Precedence) Holds() int { return len(p.holds) }

// Before reports whether a < b is known (a fact or derived by rule (1)): a
// constraint asking for b before a is predicted infeasible.
func (p *Precedence) Before(a, b uint32) bool {
	if int(a) >= p.n || int(b) >= p.n {
		return false
	}
	if p.closure == nil {
		p.closure = p.close(true)
	}
	return p.closure[a].has(b)
}

// Ordered counts the pairs of events predicted ordered (a < b or b < a) by
// every fact, and by the rules alone (with rule (1)), leaving out the pairs
// observed unordered (a wrong guess of Always can derive those): how far
// below the number of pairs the unordered ones are bounded.
func (p *Precedence) Ordered(events []uint32, observed func(a, b uint32) bool) (all, byRules int) {
	if p.closure == nil {
		p.closure = p.close(true)
	}
	if p.ruleClosure == nil {
		p.ruleClosure = p.close(false)
	}
	for i, a := range events {
		for _, b := range events[i+1:] {
			if observed(a, b) {
				continue
			}
			if ordered(p.closure, a, b) {
				all++
			}
			if ordered(p.ruleClosure, a, b) {
				byRules++
			}
		}
	}
	return all, byRules
}

func ordered(rows []bitset, a, b uint32) bool {
	n := uint32(len(rows))
	return a < n && b < n && (rows[a].has(b) || rows[b].has(a))
}

// close computes the facts' closure under rule (1): Floyd–Warshall with
// the intermediate events restricted to the Always ones.
func (p *Precedence) close(withHolds bool) []bitset {
	rows := make([]bitset, p.n)
	words := (p.n + 63) / 64
	for i := range rows {
		rows[i] = make(bitset, words)
	}
	for _, r := range p.rules {
		rows[r.A].set(r.B)
	}
	if withHolds {
		for _, h := range p.holds {
			for _, x := range h.Starved {
				rows[h.Held].set(x)
			}
		}
	}
	for k := range p.n {
		if !p.Always(uint32(k)) {
			continue
		}
		for i := range rows {
			if rows[i].has(uint32(k)) {
				rows[i].or(rows[k])
			}
		}
	}
	return rows
}

type bitset []uint64

func (b bitset) has(i uint32) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i uint32)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) or(c bitset) {
	for i := range b {
		b[i] |= c[i]
	}
}
