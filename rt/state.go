package rt

import (
	"sync"

	"github.com/morpheus-go/morpheus/internal/core"
)

// runState is rt's state of one schedule: what rewritten code reaches
// through package-level functions (math/rand's, the port numbers Listen
// hands out) but must not carry from one schedule to the next.
type runState struct {
	gen      uint64
	rand     *randState
	nextPort int
	// nextPacketPort numbers the datagram endpoints that dial (DialUDP),
	// from firstClientPort.
	nextPacketPort int
	mem            map[uintptr]memLoc // plain-memory locations by address (mem.go)
	finals         []pendingFinal     // finalizers and cleanups registered in the schedule (finalizer.go)
	listed         []*core.Task       // the goroutines the last listing showed (goroutines.go)
}

var (
	statesMu sync.Mutex
	states   = map[*core.Run]*runState{} // one per worker: Runs are reused
)

// state returns the schedule's state, fresh at its first use in the
// schedule. Only the task that runs calls it, but runs of other workers may
// run meanwhile.
func state(r *core.Run) *runState {
	statesMu.Lock()
	defer statesMu.Unlock()
	s := states[r]
	if s == nil || s.gen != r.Gen() {
		s = &runState{gen: r.Gen()}
		states[r] = s
	}
	return s
}
