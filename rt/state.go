package rt

import (
	"github.com/morpheus-go/morpheus/internal/core"
)

// runState is rt's state of one schedule: what rewritten code reaches
// through package-level functions (math/rand's, the port numbers Listen
// hands out) but must not carry from one schedule to the next.
type runState struct {
	rand     *randState
	nextPort int
	// nextPacketPort numbers the datagram endpoints that dial (DialUDP),
	// from firstClientPort.
	nextPacketPort int
	mem            map[uintptr]*memLoc          // plain-memory locations by address (mem.go)
	memCache       *[memCacheSize]memCacheEntry // the locations of recent accesses (mem.go)
	lookups        int                          // the table's look-ups the cache did not answer
	// ownedAt is the event of the running task's last op, ownedReads its
	// reads of memory of its own since, without a write; ownedStep the
	// event of the last step an access to memory of the task's own took:
	// the first after an op, a spinning read, or the last of a long
	// stretch; ownedLeft the accesses the stretch since then may still run
	// without an op (owned.go).
	ownedAt, ownedReads, ownedStep, ownedLeft int
	finals                                    []pendingFinal // finalizers and cleanups registered in the schedule (finalizer.go)
	listed                                    []*core.Task   // the goroutines the last listing showed (goroutines.go)
}

// state returns the schedule's state, fresh at its first use in the
// schedule. It lives in the schedule's Run (core.Run.Local), not in a table
// of rt's: a table keyed by the Run kept every worker a test process ever
// made alive, with the last world each ran.
func state(r *core.Run) *runState {
	l := r.Local()
	s, _ := (*l).(*runState)
	if s == nil {
		s = &runState{ownedAt: -2, ownedStep: -2} // no event yet
		*l = s
	}
	return s
}
