package raft

import (
	etcdraft "go.etcd.io/raft/v3"
	pb "go.etcd.io/raft/v3/raftpb"
)

// apply installs a received snapshot into the store, applies the committed
// entries, answers the clients whose commands were applied, saves the
// store, and takes a snapshot every SnapshotEvery entries.
func (s *server) apply(rd etcdraft.Ready) {
	e := s.e
	if !etcdraft.IsEmptySnap(rd.Snapshot) {
		sm, err := decodeMachine(rd.Snapshot.GetData())
		must0(err)
		s.sm, s.applied = sm, rd.Snapshot.GetMetadata().GetIndex()
		if st := s.c.cfg.Stats; st != nil {
			st.Snapshots.Add(1)
		}
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
