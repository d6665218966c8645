package raft

import (
	"fmt"
	"strings"

	etcdraft "go.etcd.io/raft/v3"
	pb "go.etcd.io/raft/v3/raftpb"
)

// Envelope carries a raft message from node to node. Traces record a
// message's text, and protobuf's text format is deliberately unstable (its
// spacing varies from binary to binary), so the envelope prints the message
// itself: the same trace file from every build.
type Envelope struct{ M *pb.Message }

// String describes the message: type, sender → receiver, term, and the
// fields its type uses, such as "MsgApp 1→2 term:2 logTerm:2 index:3
// entries:4-5 commit:3".
func (w Envelope) String() string {
	m := w.M
	var b strings.Builder
	fmt.Fprintf(&b, "%v %d→%d term:%d", m.GetType(), m.GetFrom(), m.GetTo(), m.GetTerm())
	if m.GetLogTerm() != 0 || m.GetIndex() != 0 {
		fmt.Fprintf(&b, " logTerm:%d index:%d", m.GetLogTerm(), m.GetIndex())
	}
	if es := m.GetEntries(); len(es) > 0 {
		fmt.Fprintf(&b, " entries:%d-%d", es[0].GetIndex(), es[len(es)-1].GetIndex())
	}
	if m.GetCommit() != 0 {
		fmt.Fprintf(&b, " commit:%d", m.GetCommit())
	}
	if m.GetReject() {
		fmt.Fprintf(&b, " reject (hint %d)", m.GetRejectHint())
	}
	if s := m.GetSnapshot(); !etcdraft.IsEmptySnap(s) {
		fmt.Fprintf(&b, " snapshot:%d@%d", s.GetMetadata().GetIndex(), s.GetMetadata().GetTerm())
	}
	return b.String()
}
