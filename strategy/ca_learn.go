package strategy

// caKnowledge is what conflict analysis learns: the conflict table, how its
// predictions fared, and what the inner strategy learned (nil if it learns
// nothing). Of an epoch's knowledge (see Advance), settled counts the epochs
// in a row before it that learned nothing new; of what an iteration learned
// it is 0, and a merge keeps the lesser count.
type caKnowledge struct {
	table   *Table
	stats   CAStats
	inner   Knowledge
	settled int
}

func (k *caKnowledge) Merge(o Knowledge) {
	ok := o.(*caKnowledge)
	k.table.Merge(ok.table)
	k.stats.Add(ok.stats)
	k.settled = min(k.settled, ok.settled)
	switch {
	case ok.inner == nil:
	case k.inner == nil:
		k.inner = ok.inner.Clone()
	default:
		k.inner.Merge(ok.inner)
	}
}

func (k *caKnowledge) Clone() Knowledge {
	c := &caKnowledge{table: k.table.Clone(), stats: k.stats, settled: k.settled}
	if k.inner != nil {
		c.inner = k.inner.Clone()
	}
	return c
}

// The driver (internal/explore) reaches conflict analysis's knowledge
// through the methods below, which the API does not show: caKnowledge is
// not exported.

// ConflictTable returns the conflict table in k. The table is k's own: the
// driver fills the prior knowledge from a saved table through it, and saves
// it at the end.
func (k *caKnowledge) ConflictTable() *Table { return k.table }

// ConflictStats returns how conflict analysis's predictions fared in the
// iterations whose knowledge k merges.
func (k *caKnowledge) ConflictStats() *CAStats {
	st := k.stats
	return &st
}

// Prior returns an empty table, with the inner strategy's prior knowledge.
func (c *CA) Prior() Knowledge {
	k := &caKnowledge{table: NewTable()}
	if l, ok := c.inner.(Learner); ok {
		k.inner = l.Prior()
	}
	return k
}

// Learn makes CA read k's table from the next iteration on, and passes the
// inner strategy its part of k. With keep false, CA skips the analysis of
// the iteration's steps, conflict analysis's main cost (ReadsSteps is false,
// End learns nothing); predictions are made as usual. If k's table has been
// settled for some epochs, CA analyses only a sample (see CA).
func (c *CA) Learn(k Knowledge, keep bool) {
	ck := k.(*caKnowledge)
	if ck.table != c.table {
		c.handed.clear()
	}
	c.table, c.idle, c.settled = ck.table, !keep, ck.settled
	if l, ok := c.inner.(Learner); ok && ck.inner != nil {
		l.Learn(ck.inner, keep)
	}
}

// Learned returns what the last iteration learned about signatures (what
// the table it read did not know: new signatures, new conflicts; less what
// CA handed back earlier while reading the same table) and the predictions'
// stats, and starts a new pending table.
func (c *CA) Learned() Knowledge {
	k := &caKnowledge{table: c.pending, stats: c.stats}
	c.pending = &Table{}
	if l, ok := c.inner.(Learner); ok {
		k.inner = l.Learned()
	}
	return k
}

// Advance returns the knowledge the iterations of the epoch after one
// read, given k, what that epoch's iterations read, and learned, what they
// learned merged (nil if nothing): k merged with learned. k is left as it
// is. The knowledge also counts the epochs in a row that learned nothing
// new: every fact an iteration hands back is new to the table it read
// (Learned), so an epoch learned nothing if what its iterations handed back
// holds no signature.
func (k *caKnowledge) Advance(learned Knowledge) Knowledge {
	next := k.Clone().(*caKnowledge)
	if learned != nil {
		next.Merge(learned)
	}
	next.settled = 0
	if lk, _ := learned.(*caKnowledge); lk == nil || lk.table.Len() == 0 {
		next.settled = k.settled + 1
	}
	return next
}
