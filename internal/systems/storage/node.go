package storage

import (
	"time"

	"github.com/morpheus-go/morpheus"
)

// Period is the storage nodes' sync period.
const Period = time.Second

// StorageNode returns the body of storage node id: it stores replicated data
// and reports its log to the server every Period.
func StorageNode(id int, server func() morpheus.PID) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		data := 0
		self := e.Self()
		e.SendAfter(Period, self, tick{})
		for {
			switch m := e.Receive(nil).(type) {
			case ReplReq:
				// The log only grows: a request delayed in the network
				// must not roll it back to older data.
				if m.Data > data {
					data = m.Data
					e.Announce(Stored{Node: id, Data: data})
				}
			case tick:
				e.Send(server(), Sync{Node: id, PID: self, Data: data})
				e.SendAfter(Period, self, tick{})
			}
		}
	}
}
