package storage

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
)

// Requests is how many requests the harness's client sends.
const Requests = 2

// Test is the harness: it builds the system on four nodes, plays the client
// and checks every Ack against what the storage nodes really hold.
func Test(cfg Config) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		truth := &replicaObserver{holds: map[int]int{}}
		var srv morpheus.PID
		nodes := make([]morpheus.PID, Replicas)
		for i := range nodes {
			n := e.NewNode(fmt.Sprintf("sn%d", i), nil)
			nodes[i] = n.Spawn("storage", StorageNode(i, func() morpheus.PID { return srv }, truth))
		}
		srv = e.NewNode("srv", nil).Spawn("server", Server(cfg, delayingNetwork{}, truth, nodes))
		for i := 1; i <= Requests; i++ {
			e.Send(srv, ClientReq{Client: e.Self(), Data: i})
			ack := morpheus.Recv[Ack](e)
			e.Assert(ack.Data == i, "ack for %d, want %d", ack.Data, i)
		}
	}
}

// delayingNetwork delivers a message at once or after one or two sync
// periods, as the strategy chooses: slow links are what let a node's report
// overtake its replication request.
type delayingNetwork struct{}

func (delayingNetwork) Send(e *morpheus.Env, to morpheus.PID, msg any) {
	if d := e.Choose(3); d > 0 {
		e.SendAfter(time.Duration(d)*Period, to, msg)
		return
	}
	e.Send(to, msg)
}

// replicaObserver knows what every storage node holds and checks each Ack.
type replicaObserver struct {
	holds map[int]int // node -> data
}

func (o *replicaObserver) Stored(node, data int) { o.holds[node] = data }

func (o *replicaObserver) Acked(e *morpheus.Env, data int) {
	n := 0
	for _, d := range o.holds {
		if d == data {
			n++
		}
	}
	e.Assert(n >= Replicas, "server acked data %d held by only %d distinct replicas", data, n)
}
