package strategy

// SetLive makes End learn straight into the table CA reads, so that every
// iteration of a sequential test uses everything learned before it.
func (c *CA) SetLive(live bool) { c.live = live }

// Probing reports whether the current iteration is a probe iteration.
func (c *CA) Probing() bool { return c.probe }

// Table returns the table CA reads.
func (c *CA) Table() *Table { return c.table }

// HeldAfter is the number of steps CA marks as they come (see caSteps).
const HeldAfter = heldAfter

// Settled returns how many epochs in a row conflict analysis's knowledge k
// has learned nothing new.
func Settled(k Knowledge) int { return k.(*caKnowledge).settled }

// ConflictTable and ConflictStats return what conflict analysis's knowledge
// k holds; Advance advances it (the methods the driver calls).
func ConflictTable(k Knowledge) *Table       { return k.(*caKnowledge).ConflictTable() }
func ConflictStats(k Knowledge) *CAStats     { return k.(*caKnowledge).ConflictStats() }
func Advance(k, learned Knowledge) Knowledge { return k.(*caKnowledge).Advance(learned) }

// ProbeEvery is how often CA runs a probe iteration: one in ProbeEvery.
const ProbeEvery = probeEvery
