package trace

// ShiVizRegexp is the regular expression WriteShiViz's log starts with.
const ShiVizRegexp = shivizRegexp

// PartialOrderer computes PartialOrder with buffers kept from one trace to
// the next.
type PartialOrderer = partialOrderer

// PartialOrder returns PartialOrder(t).
func (o *partialOrderer) PartialOrder(t *Trace) uint64 { return o.partialOrder(t) }
