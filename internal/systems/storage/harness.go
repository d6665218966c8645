package storage

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
)

// Requests is how many requests the harness's client sends.
const Requests = 2

// Test is the harness: it builds the system on four nodes and plays the
// client. Two monitors check it: every Ack must come with three distinct
// replicas (safety), and every request must eventually be acknowledged
// (liveness).
func Test(cfg Config) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		e.AddMonitor("replicas", &replicaMonitor{holds: map[int]int{}})
		e.AddMonitor("progress", morpheus.MonitorFunc(progressMonitor))
		var srv morpheus.PID
		nodes := make([]morpheus.PID, Replicas)
		for i := range nodes {
			n := e.NewNode(fmt.Sprintf("sn%d", i), nil)
			nodes[i] = n.Spawn("storage", StorageNode(i, func() morpheus.PID { return srv }))
		}
		srv = e.NewNode("srv", nil).Spawn("server", Server(cfg, delayingNetwork{}, nodes))
		for i := 1; i <= Requests; i++ {
			e.Announce(Requested{Data: i})
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

// Events the system announces to the monitors.
type (
	// Requested: the client sent a request.
	Requested struct{ Data int }
	// Stored: a storage node stored data.
	Stored struct{ Node, Data int }
	// Acked: the server acknowledged data.
	Acked struct{ Data int }
)

// replicaMonitor knows what every storage node holds and checks each Ack:
// P#'s safety monitor for bug A.
type replicaMonitor struct {
	holds map[int]int // node -> data
}

func (o *replicaMonitor) Observe(m *morpheus.Mon, event any) {
	switch ev := event.(type) {
	case Stored:
		o.holds[ev.Node] = ev.Data
	case Acked:
		n := 0
		for _, d := range o.holds {
			if d == ev.Data {
				n++
			}
		}
		m.Assert(n >= Replicas, "server acked data %d held by only %d distinct replicas", ev.Data, n)
	}
}

// progressMonitor is hot from a request until its Ack: P#'s liveness monitor
// for bug B.
func progressMonitor(m *morpheus.Mon, event any) {
	switch ev := event.(type) {
	case Requested:
		m.Hot(fmt.Sprintf("waiting for the ack of %d", ev.Data))
	case Acked:
		m.Cold("acked")
	}
}
