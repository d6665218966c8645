package raft

import (
	"maps"
	"slices"

	"github.com/morpheus-go/morpheus"
)

// Events the raft processes announce to the monitors (Env.Announce). Each is
// announced once the node has done what it describes: entries and hard
// states once written to its disk (and synced), applies once applied.
type (
	// HardStateSaved: a node wrote its HardState.
	HardStateSaved struct{ Node, Term, Vote uint64 }
	// LogWritten: a node wrote entries to its log.
	LogWritten struct {
		Node    uint64
		Entries []EntryInfo
	}
	// BecameLeader: a node became leader of Term; Has reports whether its
	// log holds the entry (index, term) (entries covered by its snapshot
	// count as held if the index is at most the snapshot's).
	BecameLeader struct {
		Node, Term uint64
		Has        func(index, term uint64) bool
	}
	// Applied: a node applied the entry at Index (or installed a snapshot
	// ending at Index), and its store's state is now Digest.
	Applied struct {
		Node, Index, Term uint64
		Data              uint64 // hash of the entry's data; 0 for a snapshot
		Digest            uint64
		Snapshot          bool
	}
	// VoteGranted: a node sent a message granting its vote to Candidate in
	// Term.
	VoteGranted struct{ Node, Candidate, Term uint64 }
	// FaultsOver: the nemesis is done; every node is up, the network is
	// healed and no longer faulty.
	FaultsOver struct{}
	// Progress: a client operation proposed after FaultsOver returned.
	Progress struct{}
)

// EntryInfo describes a log entry for the log-matching monitor: its position,
// the term of the entry before it, and a hash of its contents.
type EntryInfo struct {
	Index, Term, PrevTerm uint64
	Data                  uint64
}

// Monitor names, as failures report them ("monitor election-safety: ...").
const (
	MonElectionSafety     = "election-safety"
	MonVoteSafety         = "vote-safety"
	MonLogMatching        = "log-matching"
	MonLeaderCompleteness = "leader-completeness"
	MonStateMachineSafety = "state-machine-safety"
	MonLiveness           = "liveness"
)

// addMonitors adds raft's safety properties (Raft paper, Figure 3) and the
// liveness property as morpheus monitors.
func addMonitors(e *morpheus.Env) {
	// Election safety: at most one leader per term.
	leaders := map[uint64]uint64{}
	e.AddMonitor(MonElectionSafety, morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		if l, ok := ev.(BecameLeader); ok {
			prev, seen := leaders[l.Term]
			m.Assert(!seen || prev == l.Node, "nodes %d and %d are both leaders of term %d", prev, l.Node, l.Term)
			leaders[l.Term] = l.Node
		}
	}))

	// Vote safety, the lemma behind election safety: a node grants its
	// vote to at most one candidate per term, across its restarts.
	type vote struct{ node, term uint64 }
	votes := map[vote]uint64{}
	e.AddMonitor(MonVoteSafety, morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		if v, ok := ev.(VoteGranted); ok {
			prev, seen := votes[vote{v.Node, v.Term}]
			m.Assert(!seen || prev == v.Candidate, "node %d voted for %d and for %d in term %d", v.Node, prev, v.Candidate, v.Term)
			votes[vote{v.Node, v.Term}] = v.Candidate
		}
	}))

	// Log matching: entries with the same index and term hold the same
	// data and follow entries of the same term. By induction on the index,
	// two logs that share an entry are then identical up to it.
	type pos struct{ index, term uint64 }
	type seen struct {
		node, prevTerm, data uint64
	}
	entries := map[pos]seen{}
	e.AddMonitor(MonLogMatching, morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		w, ok := ev.(LogWritten)
		if !ok {
			return
		}
		for _, en := range w.Entries {
			p := pos{en.Index, en.Term}
			if s, ok := entries[p]; ok {
				m.Assert(s.data == en.Data && s.prevTerm == en.PrevTerm,
					"entry %d of term %d differs between nodes %d and %d (data %x/%x, previous term %d/%d)",
					en.Index, en.Term, s.node, w.Node, s.data, en.Data, s.prevTerm, en.PrevTerm)
				continue
			}
			entries[p] = seen{w.Node, en.PrevTerm, en.Data}
		}
	}))

	// Leader completeness: an entry committed in a term is in the log of
	// every leader of a later term. An entry is known to be committed once
	// some node applied it; it was committed in a term no later than the
	// highest term any node had saved by then, so leaders of terms above
	// that must hold it.
	type commit struct{ term, by uint64 }
	committed := map[uint64]commit{} // index -> entry term, highest saved term at commit
	var maxTerm uint64
	e.AddMonitor(MonLeaderCompleteness, morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		switch x := ev.(type) {
		case HardStateSaved:
			maxTerm = max(maxTerm, x.Term)
		case Applied:
			if _, ok := committed[x.Index]; !ok && !x.Snapshot {
				committed[x.Index] = commit{x.Term, maxTerm}
			}
		case BecameLeader:
			for _, i := range slices.Sorted(maps.Keys(committed)) {
				if c := committed[i]; x.Term > c.by {
					m.Assert(x.Has(i, c.term), "node %d leads term %d without entry %d of term %d, committed by term %d",
						x.Node, x.Term, i, c.term, c.by)
				}
			}
		}
	}))

	// State machine safety: no two nodes apply different entries at one
	// index, and applying the same entries yields the same state: a node's
	// store after index i is every other's store after i.
	type applied struct {
		node, term, data, digest uint64
		snapshot                 bool
	}
	states := map[uint64]applied{}
	e.AddMonitor(MonStateMachineSafety, morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		a, ok := ev.(Applied)
		if !ok {
			return
		}
		s, seen := states[a.Index]
		if !seen {
			states[a.Index] = applied{a.Node, a.Term, a.Data, a.Digest, a.Snapshot}
			return
		}
		if !s.snapshot && !a.Snapshot {
			m.Assert(s.term == a.Term && s.data == a.Data, "nodes %d and %d applied different entries at index %d (terms %d and %d)",
				s.node, a.Node, a.Index, s.term, a.Term)
		}
		m.Assert(s.digest == a.Digest, "node %d's store after index %d differs from node %d's (state %x, want %x)",
			a.Node, a.Index, s.node, a.Digest, s.digest)
	}))

	// Liveness: once the faults are over (every node up, network healed),
	// a leader is elected and a proposal commits, within StableWithin.
	e.AddMonitor(MonLiveness, morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
		switch ev.(type) {
		case FaultsOver:
			m.Hot("awaiting a leader and a commit")
		case Progress:
			m.Cold("committed")
		}
	}), morpheus.HotLimit(StableWithin))
}
