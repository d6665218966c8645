package bugs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
)

// GProc1 is gen_leader's delayed fault report (Morpheus §2.2, Fig. 3).
//
// Three election servers s1, s2 and s3 on nodes n1, n2 and n3 bootstrap a
// gproc cluster, as in the paper's test; s1 is the preferred leader. Each
// server registers as "gproc" on its node and spawns a prober that looks up
// every other candidate's registered name: a candidate whose name is not
// registered is reported down to the server at once; one that is registered
// is monitored and reported when its Down arrives. s2 and s3 look s1 up
// (retrying until it has registered) and join; s1 adds each to its view,
// welcomes it and sends the new view to the others: all are then in the
// normal phase. Once the cluster is quiet the harness registers a key
// through each server: a follower forwards it to the leader, which applies it
// and broadcasts it to its view, and the follower answers the client when
// the update reaches it.
//
// The bug: a prober's report about a candidate that simply had not
// registered yet is sent before the candidate registers, and may be handled
// after the handshake. The leader then drops the follower from its view
// (and ignores its forwarded requests), or a follower takes the report about
// the leader for a failure, falls back to the election phase and waits for a
// leader that never calls again. Either way a request through that follower
// is never answered and the views disagree.
//
// The fix: a report names the incarnation it is about (the PID the prober
// found, none if the name was not registered), and a server in the normal
// phase ignores reports that are not about the incarnation it shook hands
// with.
//
// Detector: the harness's assertions: every request must be answered (a
// receive time-out, which in virtual time fires only when nothing else can
// happen) and all servers must report the same view.
func GProc1() Scenario {
	return built(Scenario{
		Name:   "gproc-1",
		Source: "Morpheus §2.2, Fig. 3 (gen_leader, delayed fault report)",
		Hit: anyOf(hit("assertion", "gproc-1: ", "never answered"),
			hit("assertion", "gproc-1: ", "disagree on membership")),
		Options: []morpheus.Option{morpheus.ClockLimit(time.Minute), morpheus.MaxSteps(20000)},
	}, gprocTest)

}

// Messages of the gproc cluster.
type (
	// gpJoin: a candidate asks the leader to join its view.
	gpJoin struct {
		Name string
		PID  morpheus.PID
	}
	// gpWelcome: the leader accepted the candidate; both are in the normal
	// phase.
	gpWelcome struct {
		Leader  morpheus.PID
		Members []string
	}
	// gpNewView: the leader's view changed.
	gpNewView struct{ Members []string }
	// gpDown: a prober reports a candidate down. PID is the incarnation
	// it is about: the process that exited, or none if the candidate's name
	// was not registered when the prober looked.
	gpDown struct {
		Name string
		PID  morpheus.PID
	}
	// gpWatch asks a prober to monitor a candidate that joined.
	gpWatch struct {
		Name string
		PID  morpheus.PID
	}
	// gpReg: a client registers Key through a server.
	gpReg struct {
		Key    string
		Client morpheus.PID
	}
	// gpForward: a server forwards a registration to the leader.
	gpForward struct {
		From   string
		Key    string
		Client morpheus.PID
		Via    morpheus.PID
	}
	// gpUpdate: the leader's broadcast of a registration to its view.
	gpUpdate struct {
		Key    string
		Client morpheus.PID
		Via    morpheus.PID
	}
	// gpRegistered answers the client.
	gpRegistered struct{ Key string }
	// gpViewReq asks a server for its view (a call).
	gpViewReq struct{}
)

// gpCand is an election candidate: its name and its node.
type gpCand struct {
	name string
	node *morpheus.Node
}

// gpServer is one election server of the cluster.
type gpServer struct {
	v       variant
	name    string
	me      morpheus.PID
	prober  morpheus.PID
	normal  bool
	leader  morpheus.PID            // the leader it joined (non-leader)
	members map[string]morpheus.PID // the view (on the leader: with PIDs)
	view    []string                // the view (non-leader)
}

// gprocServer returns the body of candidate self; candidate 0 leads.
func gprocServer(self int, cands []gpCand, v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		s := &gpServer{v: v, name: cands[self].name, me: e.Self()}
		e.Register("gproc")
		var others []gpCand
		for i, c := range cands {
			if i != self {
				others = append(others, c)
			}
		}
		s.prober = e.Spawn("prober", gpProber(s.me, others, v))
		if self == 0 {
			s.lead(e)
		}
		s.follow(e, cands[0])
	}
}

// lead is the leader's loop: it accepts joins and serves registrations.
func (s *gpServer) lead(e *morpheus.Env) {
	s.normal = true
	s.members = map[string]morpheus.PID{s.name: s.me}
	registry := map[string]morpheus.PID{}
	for {
		m := e.Receive(nil)
		s.v.handled(e)
		switch m := m.(type) {
		case gpJoin:
			s.members[m.Name] = m.PID
			e.Send(s.prober, gpWatch(m))
			e.Send(m.PID, gpWelcome{Leader: s.me, Members: s.names()})
			s.announce(e, m.Name)
		case gpDown:
			pid, ok := s.members[m.Name]
			if !ok || m.Name == s.name {
				continue // not in the view: nothing to do
			}
			if s.v.fixed && pid != m.PID {
				continue // about another incarnation than the one that joined
			}
			delete(s.members, m.Name)
			s.announce(e, "")
		case gpReg:
			registry[m.Key] = m.Client
			s.broadcast(e, gpUpdate{Key: m.Key, Client: m.Client, Via: s.me})
		case gpForward:
			if _, ok := s.members[m.From]; !ok {
				continue // from outside the view: not ours to serve
			}
			registry[m.Key] = m.Client
			s.broadcast(e, gpUpdate{Key: m.Key, Client: m.Client, Via: m.Via})
		case request:
			answer(e, m, s.names())
		}
	}
}

// announce sends the leader's new view to every member but itself and
// except (which learns it from its welcome).
func (s *gpServer) announce(e *morpheus.Env, except string) {
	for _, n := range s.names() {
		if n != s.name && n != except {
			e.Send(s.members[n], gpNewView{Members: s.names()})
		}
	}
}

// broadcast applies an update on the leader and sends it to the view.
func (s *gpServer) broadcast(e *morpheus.Env, u gpUpdate) {
	if u.Via == s.me {
		e.Send(u.Client, gpRegistered{Key: u.Key})
	}
	for _, n := range s.names() {
		if n != s.name {
			e.Send(s.members[n], u)
		}
	}
}

func (s *gpServer) names() []string {
	var ns []string
	for n := range s.members {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// follow is a non-leader's life: find the leader, join, serve.
func (s *gpServer) follow(e *morpheus.Env, lead gpCand) {
	for {
		s.leader = e.Whereis(lead.node, "gproc")
		if !s.leader.IsZero() {
			break
		}
		e.Sleep(100 * time.Millisecond)
	}
	e.Send(s.leader, gpJoin{Name: s.name, PID: s.me})
	s.view = []string{s.name}
	registry := map[string]morpheus.PID{}
	inElection := func(m any) bool {
		switch m.(type) {
		case gpWelcome, gpDown, request:
			return true
		}
		return false
	}
	for {
		var m any
		if s.normal {
			m = e.Receive(nil)
		} else {
			m = e.Receive(inElection) // requests wait for the election's end
		}
		s.v.handled(e)
		switch m := m.(type) {
		case gpWelcome:
			s.normal, s.view = true, m.Members
			e.Send(s.prober, gpWatch{Name: lead.name, PID: m.Leader})
		case gpNewView:
			s.view = m.Members
		case gpDown:
			if !s.normal || m.Name != lead.name {
				continue
			}
			if s.v.fixed && m.PID != s.leader {
				continue // about another incarnation than the one it joined
			}
			s.normal, s.view = false, []string{s.name} // back to election
		case gpReg:
			e.Send(s.leader, gpForward{From: s.name, Key: m.Key, Client: m.Client, Via: s.me})
		case gpUpdate:
			registry[m.Key] = m.Client
			if m.Via == s.me {
				e.Send(m.Client, gpRegistered{Key: m.Key})
			}
		case request:
			answer(e, m, s.view)
		}
	}
}

// gpProber probes the other candidates for server: a candidate whose name
// is not registered is reported down at once; one that is registered (or
// that joins later, gpWatch) is monitored and reported when it exits.
func gpProber(server morpheus.PID, targets []gpCand, v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		watched := map[morpheus.Ref]string{}
		watching := map[morpheus.PID]bool{}
		watch := func(name string, pid morpheus.PID) {
			if !watching[pid] {
				watching[pid] = true
				watched[e.Watch(pid)] = name
			}
		}
		for _, t := range targets {
			pid := e.Whereis(t.node, "gproc")
			if pid.IsZero() {
				e.Send(server, gpDown{Name: t.name}) // not registered (yet?)
				continue
			}
			watch(t.name, pid)
		}
		for {
			m := e.Receive(nil)
			v.handled(e)
			switch m := m.(type) {
			case gpWatch:
				watch(m.Name, m.PID)
			case morpheus.Down:
				if name, ok := watched[m.Ref]; ok {
					delete(watched, m.Ref)
					e.Send(server, gpDown{Name: name, PID: m.PID})
				}
			}
		}
	}
}

// gprocTest boots the three-node cluster, waits for it to settle,
// registers one key through each server and checks that all agree on
// membership.
func gprocTest(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		var cands []gpCand
		for i := 1; i <= 3; i++ {
			cands = append(cands, gpCand{fmt.Sprintf("s%d", i), e.NewNode(fmt.Sprintf("n%d", i), nil)})
		}
		servers := make([]morpheus.PID, len(cands))
		for i, c := range cands {
			servers[i] = c.node.Spawn("gproc", gprocServer(i, cands, v))
		}
		e.Sleep(time.Second) // bootstrapping: the clock moves once all is quiet
		views := func() string {
			var b strings.Builder
			for i, s := range servers {
				v, err := call(e, s, gpViewReq{})
				e.Assert(err == nil, "gproc-1: %s exited: %v", cands[i].name, err)
				fmt.Fprintf(&b, " %s %v", cands[i].name, v)
			}
			return strings.TrimSpace(b.String())
		}
		for i, c := range cands {
			key := fmt.Sprintf("k%d", i+1)
			e.Send(servers[i], gpReg{Key: key, Client: e.Self()})
			if _, ok := morpheus.RecvTimeout[gpRegistered](e, 5*time.Second); !ok {
				e.Fatalf("gproc-1: registering %q through %s never answered (views: %s)", key, c.name, views())
			}
		}
		var first []string
		for i, s := range servers {
			v, err := call(e, s, gpViewReq{})
			e.Assert(err == nil, "gproc-1: %s exited: %v", cands[i].name, err)
			if i == 0 {
				first = v.([]string)
			}
			e.Assert(slices.Equal(v.([]string), first), "gproc-1: servers disagree on membership (views: %s)", views())
		}
	}
}
