package raft

import (
	etcdraft "go.etcd.io/raft/v3"
	pb "go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"
)

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
