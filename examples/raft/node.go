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

// start rebuilds the node's raft state from its disk.
func (c *cluster) start(e *morpheus.Env, id uint64) *server {
	s := &server{e: e, c: c, id: id, disk: c.nodes[id-1].Disk(), storage: etcdraft.NewMemoryStorage(),
		seen: map[attempt]bool{}, waiting: map[ReqID]Request{}, next: e.Elapsed() + Tick}
	st := load(s.disk, c.voters)
	if c.cfg.ForgetVote { // bug (c)
		st.hs = &pb.HardState{Term: proto.Uint64(st.hs.GetTerm()), Commit: proto.Uint64(st.hs.GetCommit())}
	}
	s.snap, s.log = st.snap, st.entries
	must0(s.storage.ApplySnapshot(st.snap))
	must0(s.storage.SetHardState(st.hs))
	must0(s.storage.Append(st.entries))
	var err error
	s.sm, s.applied = nil, st.snap.GetMetadata().GetIndex()
	switch {
	case st.sm != nil && c.cfg.ForgetApplied: // bug (b): the saved state, but raft starts applying after the snapshot
		s.sm = st.sm.m.clone()
	case st.sm != nil && st.sm.applied >= s.applied:
		s.sm, s.applied = st.sm.m.clone(), st.sm.applied
	}
	if s.sm == nil {
		s.sm, err = decodeMachine(st.snap.GetData())
		must0(err)
	}
	applied := s.applied
	if c.cfg.ForgetApplied {
		applied = 0
	}
	s.rn, err = etcdraft.NewRawNode(&etcdraft.Config{
		ID: id, ElectionTick: ElectionTicks, HeartbeatTick: HeartbeatTicks, Storage: s.storage,
		Applied: applied, MaxSizePerMsg: 1 << 20, MaxInflightMsgs: 64, Logger: quietLogger{},
		// Followers refuse proposals instead of forwarding them: a
		// forwarded proposal that the network duplicates would be
		// appended twice.
		DisableProposalForwarding: true,
	})
	must0(err)
	return s
}

func must0(err error) {
	if err != nil {
		panic("raft harness: " + err.Error())
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

// persist makes a Ready's snapshot, entries and HardState durable: into the
// raft storage, onto the disk, and synced.
func (s *server) persist(rd etcdraft.Ready) {
	e, d := s.e, s.disk
	wrote := false
	if !etcdraft.IsEmptySnap(rd.Snapshot) {
		must0(s.storage.ApplySnapshot(rd.Snapshot))
		s.snap = rd.Snapshot
		s.log = trimLog(s.log, rd.Snapshot.GetMetadata().GetIndex())
		d.Write(keySnapshot, rd.Snapshot)
		d.Write(keyEntries, s.log)
		wrote = true
	}
	if len(rd.Entries) > 0 {
		must0(s.storage.Append(rd.Entries))
		s.log = appendLog(s.log, rd.Entries)
		d.Write(keyEntries, s.log)
		wrote = true
	}
	if !etcdraft.IsEmptyHardState(rd.HardState) {
		hs := proto.Clone(rd.HardState).(*pb.HardState)
		must0(s.storage.SetHardState(hs))
		d.Write(keyHardState, hs)
		wrote = true
	}
	if !wrote {
		return
	}
	d.Sync()
	if hs := rd.HardState; !etcdraft.IsEmptyHardState(hs) {
		e.Announce(HardStateSaved{Node: s.id, Term: hs.GetTerm(), Vote: hs.GetVote()})
	}
	if len(rd.Entries) > 0 {
		w := LogWritten{Node: s.id}
		for _, en := range rd.Entries {
			prev, err := s.storage.Term(en.GetIndex() - 1)
			must0(err)
			w.Entries = append(w.Entries, EntryInfo{Index: en.GetIndex(), Term: en.GetTerm(), PrevTerm: prev, Data: hashData(en.GetData())})
		}
		e.Announce(w)
	}
	if rd.SoftState != nil && rd.SoftState.RaftState == etcdraft.StateLeader {
		e.Announce(BecameLeader{Node: s.id, Term: s.rn.BasicStatus().GetTerm(), Has: s.has})
	}
}

// has reports whether the node's log holds entry (index, term), counting
// entries its snapshot covers.
func (s *server) has(index, term uint64) bool {
	if index <= s.snap.GetMetadata().GetIndex() {
		return true
	}
	t, err := s.storage.Term(index)
	return err == nil && t == term
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

// apply installs a received snapshot into the store, applies the committed
// entries, answers the clients whose commands were applied, saves the
// store, and takes a snapshot every SnapshotEvery entries.
func (s *server) apply(rd etcdraft.Ready) {
	e := s.e
	if !etcdraft.IsEmptySnap(rd.Snapshot) {
		sm, err := decodeMachine(rd.Snapshot.GetData())
		must0(err)
		s.sm, s.applied = sm, rd.Snapshot.GetMetadata().GetIndex()
		e.Announce(Applied{Node: s.id, Index: s.applied, Term: rd.Snapshot.GetMetadata().GetTerm(), Digest: sm.digest(), Snapshot: true})
	}
	for _, en := range rd.CommittedEntries {
		var cmd Command
		var result string
		isCmd := en.GetType() == pb.EntryNormal && len(en.GetData()) > 0
		if isCmd {
			var err error
			cmd, err = DecodeCommand(en.GetData())
			must0(err)
			result = s.sm.apply(cmd)
		}
		s.applied = en.GetIndex()
		e.Announce(Applied{Node: s.id, Index: en.GetIndex(), Term: en.GetTerm(), Data: hashData(en.GetData()), Digest: s.sm.digest()})
		if r, ok := s.waiting[cmd.ID]; isCmd && ok {
			delete(s.waiting, cmd.ID)
			e.Send(r.From, Reply{ID: r.ID, Attempt: r.Attempt, Value: result})
		}
	}
	if etcdraft.IsEmptySnap(rd.Snapshot) && len(rd.CommittedEntries) == 0 {
		return
	}
	if st := s.c.cfg.Stats; st != nil {
		st.Applied.Add(int64(len(rd.CommittedEntries)))
	}
	saved := machineState{m: s.sm.clone(), applied: s.applied}
	if s.c.cfg.ForgetApplied {
		saved.applied = 0 // bug (b)
	}
	s.disk.Write(keyMachine, saved)
	s.disk.Sync()
	if s.applied-s.snap.GetMetadata().GetIndex() >= SnapshotEvery {
		snap, err := s.storage.CreateSnapshot(s.applied, s.snap.GetMetadata().GetConfState(), s.sm.encode())
		must0(err)
		must0(s.storage.Compact(s.applied))
		s.snap, s.log = snap, trimLog(s.log, s.applied)
		s.disk.Write(keySnapshot, snap)
		s.disk.Write(keyEntries, s.log)
		s.disk.Sync()
	}
}
