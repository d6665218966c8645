package kv

import "github.com/morpheus-go/morpheus"

// ReqID identifies a client's request: replies carry it, so that a client
// that gave up on a request does not mistake its late reply for the answer
// to the next one.
type ReqID struct{ Client, N int }

// Get asks a replica for Key's value ("" if never written).
type Get struct {
	ID   ReqID
	From morpheus.PID
	Key  string
}

// GetReply answers a Get.
type GetReply struct {
	ID    ReqID
	Value string
}

// Put asks the primary to set Key to Value.
type Put struct {
	ID         ReqID
	From       morpheus.PID
	Key, Value string
}

// PutReply acknowledges a Put: the backup has applied it too.
type PutReply struct{ ID ReqID }

// Replicate asks the backup to apply the primary's Seq-th write.
type Replicate struct {
	Seq        int
	From       morpheus.PID
	Key, Value string
}

// Replicated tells the primary that the backup applied write Seq.
type Replicated struct{ Seq int }

// Primary returns the primary's process body. It applies a Put at once,
// replicates it to backup and acknowledges it when the backup confirms
// (synchronous replication); it goes on serving other requests meanwhile.
// It answers a Get from its own data, which holds every write it has
// applied, acknowledged or not.
func Primary(backup morpheus.PID) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		data := map[string]string{}
		seq := 0
		waiting := map[int]Put{} // writes sent to the backup, by sequence number
		for {
			switch m := e.Receive(nil).(type) {
			case Put:
				data[m.Key] = m.Value
				seq++
				waiting[seq] = m
				e.Send(backup, Replicate{Seq: seq, From: e.Self(), Key: m.Key, Value: m.Value})
			case Replicated:
				if p, ok := waiting[m.Seq]; ok {
					delete(waiting, m.Seq)
					e.Send(p.From, PutReply{ID: p.ID})
				}
			case Get:
				e.Send(m.From, GetReply{ID: m.ID, Value: data[m.Key]})
			}
		}
	}
}

// Backup is the backup's process body. It applies the primary's writes in
// the primary's order (the network may reorder them: it holds back a write
// until the ones before it are applied) and confirms each; it answers a Get
// from its own data, which lags the primary's by the writes still on their
// way.
func Backup(e *morpheus.Env) {
	data := map[string]string{}
	next := 1                    // the sequence number of the next write to apply
	early := map[int]Replicate{} // writes that overtook an earlier one
	for {
		switch m := e.Receive(nil).(type) {
		case Replicate:
			early[m.Seq] = m
			for w, ok := early[next]; ok; w, ok = early[next] {
				delete(early, next)
				data[w.Key] = w.Value
				e.Send(w.From, Replicated{Seq: w.Seq})
				next++
			}
		case Get:
			e.Send(m.From, GetReply{ID: m.ID, Value: data[m.Key]})
		}
	}
}
