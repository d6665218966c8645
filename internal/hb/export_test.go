package hb

import "github.com/morpheus-go/morpheus/trace"

// ShiVizRegexp is the regular expression WriteShiViz's log starts with.
const ShiVizRegexp = shivizRegexp

// PartialOrderer computes PartialOrder with buffers kept from one trace to
// the next.
type PartialOrderer = partialOrderer

// PartialOrder returns PartialOrder(t).
func (o *partialOrderer) PartialOrder(t *trace.Trace) uint64 { return o.partialOrder(t) }

// Recorded is where the recorded traces the tests walk live: package
// trace's testdata (storage.trace, faults.trace, liveness.trace), one copy
// for the format's tests and these.
const Recorded = "../../trace/testdata/"
