package raft

import (
	"errors"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/linearize"
	etcdraft "go.etcd.io/raft/v3"
	pb "go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"
)

// Request asks a node to run a client operation. Attempt numbers the
// client's tries of one operation: a node runs each try at most once, so a
// duplicated or late request is never proposed twice.
type Request struct {
	ID      ReqID
	Attempt int
	From    morpheus.PID
	Cmd     Command
}

// Reply answers a Request: the operation's result once the node applied it,
// or Rejected if the node is not the leader (it proposed nothing; Leader is
// the leader it knows, 0 if none).
type Reply struct {
	ID       ReqID
	Attempt  int
	Rejected bool
	Leader   uint64
	Value    string
}

// attempt identifies one try of an operation.
type attempt struct {
	id ReqID
	n  int
}

// server is one raft node: a RawNode driven by the process's messages and
// the virtual clock, persisting to the node's disk.
type server struct {
	e       *morpheus.Env
	c       *cluster
	id      uint64
	disk    *morpheus.Disk
	storage *etcdraft.MemoryStorage
	rn      *etcdraft.RawNode
	log     []*pb.Entry // the durable log after the snapshot, as on disk
	snap    *pb.Snapshot
	sm      *machine
	applied uint64
	seen    map[attempt]bool  // tries this process has handled
	waiting map[ReqID]Request // proposed here, not applied yet
	next    time.Duration     // when the next tick is due
}

// serve is the body of node id's process: it starts from the node's disk
// (the bootstrap state if empty), then steps messages, ticks on the virtual
// clock, and handles raft's Ready, until its node crashes.
func (c *cluster) serve(id uint64) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		defer useJitter(e, id)()
		s := c.start(e, id)
		c.pids[id-1] = e.Self()
		for {
			wait := max(s.next-e.Elapsed(), 0)
			if m, ok := e.ReceiveTimeout(nil, wait); ok {
				s.handle(m)
			} else {
				s.rn.Tick()
				s.next += Tick
			}
			s.ready()
		}
	}
}

// handle steps a peer's message or proposes a client's command.
func (s *server) handle(m any) {
	switch m := m.(type) {
	case Envelope:
		_ = s.rn.Step(m.M) // errors are messages for unknown peers or local ones: dropped, as raft expects
	case Request:
		a := attempt{m.ID, m.Attempt}
		if s.seen[a] {
			return // a duplicate
		}
		s.seen[a] = true
		if s.c.cfg.LeaderReads && m.Cmd.In.Op == linearize.KVGet && s.rn.BasicStatus().RaftState == etcdraft.StateLeader {
			s.e.Send(m.From, Reply{ID: m.ID, Attempt: m.Attempt, Value: s.sm.apply(m.Cmd)}) // the mistake: no quorum behind the read
			return
		}
		err := s.rn.Propose(encodeCommand(m.Cmd))
		if errors.Is(err, etcdraft.ErrProposalDropped) {
			s.e.Send(m.From, Reply{ID: m.ID, Attempt: m.Attempt, Rejected: true, Leader: s.rn.BasicStatus().Lead})
			return
		}
		must0(err)
		s.waiting[m.ID] = m
	}
}

// ready handles raft's Readys until there are none: persist, send, apply.
func (s *server) ready() {
	for s.rn.HasReady() {
		rd := s.rn.Ready()
		if s.c.cfg.SendBeforePersist { // bug (a)
			s.send(rd.Messages)
			s.persist(rd)
		} else {
			s.persist(rd)
			s.send(rd.Messages)
		}
		s.apply(rd)
		s.rn.Advance(rd)
	}
}

// send puts a Ready's messages on the network. A snapshot is reported sent
// at once: if it is lost, the follower's next answer makes the leader probe
// it again.
func (s *server) send(msgs []*pb.Message) {
	for _, m := range msgs {
		to := m.GetTo()
		if m.GetType() == pb.MsgVoteResp && !m.GetReject() {
			s.e.Announce(VoteGranted{Node: s.id, Candidate: to, Term: m.GetTerm()})
		}
		s.e.Send(s.c.pids[to-1], Envelope{proto.Clone(m).(*pb.Message)})
		if m.GetType() == pb.MsgSnap {
			s.rn.ReportSnapshot(to, etcdraft.SnapshotFinish)
		}
	}
}
