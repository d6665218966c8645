package raft

import (
	"fmt"
	"testing"

	pb "go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"
)

func TestEnvelopeString(t *testing.T) {
	u := proto.Uint64
	typ := func(t pb.MessageType) *pb.MessageType { return &t }
	for _, c := range []struct {
		m    *pb.Message
		want string
	}{
		{&pb.Message{Type: typ(pb.MsgVote), From: u(2), To: u(1), Term: u(3), LogTerm: u(1), Index: u(4)},
			"MsgVote 2→1 term:3 logTerm:1 index:4"},
		{&pb.Message{Type: typ(pb.MsgApp), From: u(1), To: u(3), Term: u(2), LogTerm: u(2), Index: u(3), Commit: u(3),
			Entries: []*pb.Entry{{Index: u(4)}, {Index: u(5)}}},
			"MsgApp 1→3 term:2 logTerm:2 index:3 entries:4-5 commit:3"},
		{&pb.Message{Type: typ(pb.MsgAppResp), From: u(3), To: u(1), Term: u(2), Index: u(3), Reject: proto.Bool(true), RejectHint: u(1)},
			"MsgAppResp 3→1 term:2 logTerm:0 index:3 reject (hint 1)"},
		{&pb.Message{Type: typ(pb.MsgSnap), From: u(1), To: u(2), Term: u(2),
			Snapshot: &pb.Snapshot{Metadata: &pb.SnapshotMetadata{Index: u(9), Term: u(2)}}},
			"MsgSnap 1→2 term:2 snapshot:9@2"},
	} {
		if got := fmt.Sprintf("%+v", Envelope{c.m}); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
