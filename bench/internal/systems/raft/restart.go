package raft

import (
	"github.com/morpheus-go/morpheus"
	etcdraft "go.etcd.io/raft/v3"
	pb "go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"
)

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
