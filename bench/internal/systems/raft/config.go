package raft

import (
	"fmt"
	"time"
)

// Config sets up a test of a raft cluster. The zero Config is the correct
// harness with the default cluster and fault budgets; each Bug switch turns
// one mistake of a raft user on.
type Config struct {
	// Nodes is the cluster size: 3 (default) or 5.
	Nodes int
	// Clients run concurrently (default 2), each issuing Ops operations
	// (default 3).
	Clients, Ops int

	// Fault budgets of one iteration: node crashes (each followed by a
	// restart), network partitions (each healed), and messages between
	// nodes dropped, duplicated or delayed (delayed messages arrive up to
	// DelayTicks later, so later ones may overtake them). Negative means
	// none; 0 means the default.
	Crashes, Partitions, Drops, Duplicates, Delays int

	// SendBeforePersist is bug (a): a Ready's messages go out before its
	// HardState and entries are on disk, so a crash in between makes a node
	// forget a vote or entries it has told others about.
	SendBeforePersist bool
	// ForgetApplied is bug (b): the state machine saves its state after
	// applying entries but not the index it has applied up to, so after a
	// restart raft hands it committed entries again, and appends are
	// applied twice.
	ForgetApplied bool
	// ForgetVote is bug (c): a restarted node loads its term and commit
	// index but not whom it voted for, so it may vote twice in one term.
	ForgetVote bool
	// LeaderReads is a fourth mistake, beside bugs (a), (b) and (c): a node
	// that believes it is the leader answers gets from its own store
	// instead of through the log. A leader cut off from the others keeps
	// believing it and serves stale values; only the linearizability check
	// sees it.
	LeaderReads bool

	// Stats, if not nil, counts client operations and applied entries
	// (for throughput figures).
	Stats *Stats
}

// Timing of the cluster, on the virtual clock.
const (
	// Tick is the interval of RawNode.Tick.
	Tick = 10 * time.Millisecond
	// ElectionTicks and HeartbeatTicks are raft's ElectionTick and
	// HeartbeatTick: a follower that hears no leader for a random
	// [ElectionTicks, 2*ElectionTicks) ticks campaigns.
	ElectionTicks  = 4
	HeartbeatTicks = 1
	// DelayTicks is how long a delayed message stays in flight at least.
	DelayTicks = 2
	// ClientTimeout is how long a client waits for an answer before it
	// gives up and leaves the operation pending.
	ClientTimeout = 40 * Tick
	// Attempts bounds how often a client retries an operation that a node
	// refused (it was not the leader).
	Attempts = 6
	// SnapshotEvery is how many applied entries make a node take a snapshot
	// and compact its log.
	SnapshotEvery = 4
	// StableWithin is the liveness monitor's HotLimit: once the faults have
	// stopped, a leader must be elected and a proposal committed within it.
	StableWithin = 5 * time.Second
)

// budget returns v, its default if 0, none if negative.
func budget(v, def int) int {
	switch {
	case v < 0:
		return 0
	case v == 0:
		return def
	}
	return v
}

// withDefaults fills in the defaults and checks the cluster size.
func (c Config) withDefaults() Config {
	if c.Nodes == 0 {
		c.Nodes = 3
	}
	if c.Nodes != 3 && c.Nodes != 5 {
		panic(fmt.Sprintf("raft: Config.Nodes is %d; want 3 or 5", c.Nodes))
	}
	c.Clients = budget(c.Clients, 2)
	c.Ops = budget(c.Ops, 3)
	c.Crashes = budget(c.Crashes, 2)
	c.Partitions = budget(c.Partitions, 1)
	c.Drops = budget(c.Drops, 4)
	c.Duplicates = budget(c.Duplicates, 2)
	c.Delays = budget(c.Delays, 3)
	return c
}

// String names the configuration's bugs ("fixed" for none).
func (c Config) String() string {
	s := ""
	add := func(on bool, name string) {
		if on {
			if s != "" {
				s += "+"
			}
			s += name
		}
	}
	add(c.SendBeforePersist, "send-before-persist")
	add(c.ForgetApplied, "forget-applied")
	add(c.ForgetVote, "forget-vote")
	add(c.LeaderReads, "leader-reads")
	if s == "" {
		return "fixed"
	}
	return s
}
