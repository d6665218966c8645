package explore

import "github.com/morpheus-go/morpheus/strategy"

// What the driver asks of a strategy's knowledge beyond strategy.Knowledge:
// conflict analysis's knowledge (strategy.WithCA's Prior and Learned) has
// these methods, which its unexported type keeps out of the API.
type (
	// advancer makes the knowledge of the next epoch itself, counting more
	// than a merge does (how long the table has been settled).
	advancer interface {
		Advance(learned strategy.Knowledge) strategy.Knowledge
	}
	// conflictKnowledge holds a conflict table and the predictions' stats.
	conflictKnowledge interface {
		ConflictTable() *strategy.Table
		ConflictStats() *strategy.CAStats
	}
)

// advance returns the knowledge the iterations of the epoch after one read,
// given known, what that epoch's iterations read, and learned, what they
// learned merged (nil if nothing): known merged with learned. known is left
// as it is.
func advance(known, learned strategy.Knowledge) strategy.Knowledge {
	if a, ok := known.(advancer); ok {
		return a.Advance(learned)
	}
	next := known.Clone()
	if learned != nil {
		next.Merge(learned)
	}
	return next
}

// conflictTable returns the conflict table in k, or nil if k is not
// conflict analysis's knowledge. The table is k's own: filling it fills k.
func conflictTable(k strategy.Knowledge) *strategy.Table {
	if ck, ok := k.(conflictKnowledge); ok {
		return ck.ConflictTable()
	}
	return nil
}

// conflictStats returns how conflict analysis's predictions fared in the
// iterations whose knowledge k merges, or nil if k is not conflict
// analysis's knowledge.
func conflictStats(k strategy.Knowledge) *strategy.CAStats {
	if ck, ok := k.(conflictKnowledge); ok {
		return ck.ConflictStats()
	}
	return nil
}
