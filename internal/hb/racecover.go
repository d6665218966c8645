package hb

// Covers reports whether every access of task u that the detector has
// checked so far happens before task t's next access: t's clock holds u's
// own entry at u's latest access (steps of u after it, such as its exit,
// need not be). A task with no access is covered.
func (d *Races) Covers(t, u int32) bool {
	if int(u) >= len(d.lastAcc) || d.lastAcc[u] == 0 {
		return true
	}
	if t < 0 || int(t) >= len(d.w.clock) {
		return false
	}
	return d.w.clock[t].At(u) >= d.lastAcc[u]
}

// accessed records an access of task at its own clock entry clk.
func (d *Races) accessed(task int32, clk uint32) {
	if int(task) >= len(d.lastAcc) {
		d.lastAcc = append(d.lastAcc, make([]uint32, int(task)+1-len(d.lastAcc))...)
	}
	d.lastAcc[task] = clk
}
