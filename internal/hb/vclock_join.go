package hb

// Joins of equally long vector clocks in place, for the data-race
// detector's synchronisations (Races.Sync, Races.Handoff), which make every
// clock taking part their join: one pass over the entries, whatever the
// number of clocks, instead of one pass per pair. Where a task
// synchronises with others that all stepped since (a ring of goroutines
// passing tokens), nearly every entry changes at every handoff, so no
// bookkeeping of what changed saves the pass; its cost per entry is what
// is left to cut, and on amd64 the pass runs in vector instructions
// (joinBoth, vclock_join_amd64.go).

// joinAll makes a, b and c, which are equally long, all their join.
func joinAll(a, b, c VC) {
	joinInto(a, c)
	joinBoth(a, b)
	copy(c, a)
}

// joinBothGo is joinBoth in Go, for any architecture: a and b, b at least
// as long as a, both become their join over a's entries.
func joinBothGo(a, b VC) {
	b = b[:len(a)] // no bounds check in the loop
	for i, x := range a {
		m := max(x, b[i])
		a[i], b[i] = m, m
	}
}

// joinIntoGo is joinInto in Go, for any architecture: a, no longer than
// b, becomes its join with b.
func joinIntoGo(a, b VC) {
	b = b[:len(a)]
	for i, x := range a {
		a[i] = max(x, b[i])
	}
}
