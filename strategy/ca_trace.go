package strategy

// ReadsTrace reports that conflict analysis learns from every iteration's
// trace.
func (c *CA) ReadsTrace() bool { return true }
