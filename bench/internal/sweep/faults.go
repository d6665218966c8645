package sweep

import "github.com/morpheus-go/morpheus"

// The messages of replicatedPut.
type (
	sweepPut       struct{ From morpheus.PID }
	sweepReplicate struct{ From morpheus.PID }
	sweepAck       struct{}
)

// replicatedPut: a client's put goes to a primary that replicates it to two
// backups and acknowledges it once both have; a liveness monitor owes the
// acknowledgement. The network drops, duplicates, delays and reorders
// messages among the servers only (Faults.Only), never the client's: the
// failure found is a lost replication, for which the primary, which does
// not retry, waits forever.
func replicatedPut(e *morpheus.Env) {
	e.AddMonitor("ack", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		if ev == "put" {
			m.Hot("owed")
		} else {
			m.Cold("acknowledged")
		}
	}))
	servers := []*morpheus.Node{e.NewNode("p", nil), e.NewNode("b1", nil), e.NewNode("b2", nil)}
	e.SetFaults(morpheus.Faults{
		Drop: 0.1, MaxDrops: 1, Duplicate: 0.1, MaxDuplicates: 1, Delay: 0.2, Reorder: true,
		Only: morpheus.Between(servers, servers),
	})
	var backups []morpheus.PID
	for _, n := range servers[1:] {
		backups = append(backups, n.Spawn("backup", func(e *morpheus.Env) {
			for {
				r := morpheus.Recv[sweepReplicate](e)
				e.Send(r.From, sweepAck{})
			}
		}))
	}
	primary := servers[0].Spawn("primary", func(e *morpheus.Env) {
		for {
			req := morpheus.Recv[sweepPut](e)
			for _, b := range backups {
				e.Send(b, sweepReplicate{e.Self()})
			}
			for range backups {
				morpheus.Recv[sweepAck](e)
			}
			e.Send(req.From, sweepAck{})
		}
	})
	e.NewNode("c", nil).Spawn("client", func(e *morpheus.Env) {
		e.Announce("put")
		e.Send(primary, sweepPut{e.Self()})
		morpheus.Recv[sweepAck](e)
		e.Announce("ack")
	})
}
