package trace

// Joins of equally long vector clocks in place, for the data-race
// detector's synchronisations (Races.Sync, Races.Handoff), which make every
// clock taking part their join: one pass over the entries, whatever the
// number of clocks, instead of one pass per pair.

// joinBoth makes a and b, which are equally long, both their join.
func joinBoth(a, b VC) {
	b = b[:len(a)] // no bounds check in the loop
	for i, x := range a {
		m := max(x, b[i])
		a[i], b[i] = m, m
	}
}

// joinAll makes a, b and c, which are equally long, all their join.
func joinAll(a, b, c VC) {
	b, c = b[:len(a)], c[:len(a)]
	for i, x := range a {
		m := max(x, b[i], c[i])
		a[i], b[i], c[i] = m, m, m
	}
}
