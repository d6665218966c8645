package storage

import "github.com/morpheus-go/morpheus"

// Replicas is how many storage nodes must hold data before the server acks.
const Replicas = 3

// Config switches the server's bugs off.
type Config struct {
	FixDuplicates bool // bug A: count each node at most once per request
	FixReset      bool // bug B: start a fresh count for every request
}

// Network sends the server's messages; the harness decides how they travel.
type Network interface {
	Send(e *morpheus.Env, to morpheus.PID, msg any)
}

// server is the system under test.
type server struct {
	cfg      Config
	net      Network
	nodes    []morpheus.PID
	data     int
	client   morpheus.PID
	replicas int
	counted  map[int]bool // nodes counted for the current request (with FixDuplicates)
	pending  bool         // a request waits for its Ack
}

// Server returns the server's process body; nodes are the storage nodes.
func Server(cfg Config, net Network, nodes []morpheus.PID) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		s := &server{cfg: cfg, net: net, nodes: nodes, counted: map[int]bool{}}
		for {
			switch m := e.Receive(nil).(type) {
			case ClientReq:
				s.request(e, m)
			case Sync:
				s.sync(e, m)
			}
		}
	}
}

func (s *server) request(e *morpheus.Env, m ClientReq) {
	s.data, s.client, s.pending = m.Data, m.Client, true
	if s.cfg.FixReset {
		// Bug B without it: the count of the previous request carries over,
		// runs past Replicas, and this request is never acknowledged.
		s.replicas = 0
		clear(s.counted)
	}
	for _, n := range s.nodes {
		s.net.Send(e, n, ReplReq{Data: m.Data})
	}
}

func (s *server) sync(e *morpheus.Env, m Sync) {
	if !s.pending && (s.cfg.FixReset || s.client.IsZero()) {
		return // nothing to count for
	}
	if m.Data != s.data {
		s.net.Send(e, m.PID, ReplReq{Data: s.data}) // outdated: replicate again
		return
	}
	if s.cfg.FixDuplicates {
		if s.counted[m.Node] {
			return
		}
		s.counted[m.Node] = true
	}
	s.replicas++ // bug A without FixDuplicates: the same node may count twice
	if s.replicas == Replicas {
		e.Announce(Acked{Data: s.data})
		e.Send(s.client, Ack{Data: s.data})
		s.pending = false
	}
}
