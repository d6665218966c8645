package bugs

import (
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/systems/storage"
)

// Storage is bug A of the P# paper's replicating storage system (§2.2),
// reused from internal/systems/storage: the server counts an up-to-date sync report
// from a node it already counted, so it can acknowledge the client with
// fewer than three distinct replicas. The fix counts each node once per
// request. Detector: the example's safety monitor, which knows what every
// storage node holds and asserts at each Ack. Bug B is fixed here (see
// StorageLiveness).
func Storage() Scenario {
	return Scenario{
		Name:   "storage",
		Source: "P# §2.2 (replicating storage, bug A); internal/systems/storage",
		Test: func(fixed bool) func(*morpheus.Env) {
			return storage.Test(storage.Config{FixDuplicates: fixed, FixReset: true})
		},
		Hit:     hit("assertion", "monitor replicas: ", "held by only"),
		Options: []morpheus.Option{morpheus.ClockLimit(time.Minute)},
	}
}

// StorageLiveness is bug B of the same system: the replica counter is not
// reset for a new request, so the second request is never acknowledged. The
// fix resets it. Detector: the example's liveness monitor, hot from a request
// until its Ack; the nodes' timers keep the system busy until the clock
// limit. Every schedule finds it, so it is not part of the suite's table.
func StorageLiveness() Scenario {
	return Scenario{
		Name:   "storage-liveness",
		Source: "P# §2.2 (replicating storage, bug B); internal/systems/storage",
		Test: func(fixed bool) func(*morpheus.Env) {
			return storage.Test(storage.Config{FixDuplicates: true, FixReset: fixed})
		},
		Hit:     hit("liveness", "monitor progress is hot"),
		Options: []morpheus.Option{morpheus.ClockLimit(time.Minute)},
	}
}
