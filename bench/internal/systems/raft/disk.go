package raft

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
	pb "go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"
)

// Keys of a node's durable state on its morpheus.Disk. Values are written
// once and never changed afterwards (the Disk keeps them as given).
const (
	keyHardState = "raft/hardstate" // *pb.HardState
	keySnapshot  = "raft/snapshot"  // *pb.Snapshot
	keyEntries   = "raft/entries"   // []*pb.Entry: the log after the snapshot
	keyMachine   = "machine"        // machineState
)

// machineState is the state machine's own save: its state and, unless bug
// (b) is on, the index of the last entry applied to it.
type machineState struct {
	m       *machine
	applied uint64 // 0: not saved
}

// durable is what a node finds on its disk when it starts.
type durable struct {
	hs      *pb.HardState
	snap    *pb.Snapshot
	entries []*pb.Entry
	sm      *machineState // nil if never saved
}

// bootstrap is the state of a node whose disk is empty: every node of the
// cluster starts from the same snapshot at index 1, term 1, whose
// configuration lists all the voters, and an empty store.
func bootstrap(voters []uint64) durable {
	return durable{
		hs: &pb.HardState{Term: proto.Uint64(1), Commit: proto.Uint64(1)},
		snap: &pb.Snapshot{Data: newMachine().encode(), Metadata: &pb.SnapshotMetadata{
			ConfState: &pb.ConfState{Voters: voters}, Index: proto.Uint64(1), Term: proto.Uint64(1)}},
	}
}

// load reads the node's durable state, or the bootstrap state for what was
// never saved. A value of the wrong type is a harness bug and panics.
func load(d *morpheus.Disk, voters []uint64) durable {
	st := bootstrap(voters)
	if v, ok := d.Read(keyHardState); ok {
		st.hs = must[*pb.HardState](v, keyHardState)
	}
	if v, ok := d.Read(keySnapshot); ok {
		st.snap = must[*pb.Snapshot](v, keySnapshot)
	}
	if v, ok := d.Read(keyEntries); ok {
		st.entries = must[[]*pb.Entry](v, keyEntries)
	}
	if v, ok := d.Read(keyMachine); ok {
		sm := must[machineState](v, keyMachine)
		st.sm = &sm
	}
	return st
}

func must[T any](v any, key string) T {
	t, ok := v.(T)
	if !ok {
		panic(fmt.Sprintf("raft: disk key %s holds %T, want %T", key, v, t))
	}
	return t
}

// appendLog returns log (entries after the snapshot, in index order) with
// ents written over it: an entry replaces the one at its index and every
// later one, as raft's storage does. It returns a fresh slice.
func appendLog(log, ents []*pb.Entry) []*pb.Entry {
	if len(ents) == 0 {
		return log
	}
	first := ents[0].GetIndex()
	out := make([]*pb.Entry, 0, len(log)+len(ents))
	for _, e := range log {
		if e.GetIndex() < first {
			out = append(out, e)
		}
	}
	return append(out, ents...)
}

// trimLog returns the entries of log after index i, in a fresh slice.
func trimLog(log []*pb.Entry, i uint64) []*pb.Entry {
	out := []*pb.Entry{}
	for _, e := range log {
		if e.GetIndex() > i {
			out = append(out, e)
		}
	}
	return out
}
