// Package raft runs etcd's raft library (go.etcd.io/raft/v3, RawNode with
// MemoryStorage) under morpheus: real, widely used code that nobody here
// wrote, tested with controlled scheduling, faults and specification
// monitors.
//
// # The harness
//
// Test(cfg) builds a cluster of Config.Nodes (3 or 5) raft nodes. Each is a
// morpheus node running one process that drives a RawNode:
//
//   - messages between nodes are morpheus messages (Env.Send), so the
//     network's faults apply to them: the network drops, duplicates and
//     delays them (a delayed message is overtaken by later ones) within the
//     Config's budgets;
//   - ticks come from the virtual clock: the process waits in
//     ReceiveTimeout until its next tick is due (every Tick);
//   - each Ready is handled as raft asks: snapshot, entries and HardState
//     written to the node's morpheus.Disk and synced, then the messages sent,
//     then the committed entries applied, then Advance;
//   - the state machine is a key-value store (get, put, append); it saves
//     its state with the index it has applied, and every SnapshotEvery
//     entries the node snapshots it and compacts its log, so lagging
//     followers are caught up by MsgSnap;
//   - a node that restarts rebuilds its MemoryStorage and store from its
//     disk alone.
//
// A nemesis process crashes and restarts nodes (a reboot may be immediate)
// and cuts links or isolates nodes, at times and on nodes it picks with
// controlled choices, within Config.Crashes and Config.Partitions. Clients
// send gets, puts and appends of two keys to nodes they pick; a node that is
// not the leader refuses (followers do not forward proposals, which the
// network could duplicate) and the client tries the leader it names. Each
// try of an operation is proposed at most once, so no command is ever in the
// log twice, and appends, which are not idempotent, expose any entry
// applied twice. Operations are recorded in a linearize.History.
//
// Raft's election jitter reads crypto/rand. The package installs a
// crypto/rand.Reader that gives each raft process its own ChaCha8 stream,
// seeded by a controlled choice when the process starts (see rand.go for
// why not a choice per read, nor testing/cryptotest.SetGlobalRandom); every
// other goroutine of the program keeps the real reader. Same seed, same
// iteration, byte for byte, whatever the number of workers.
//
// # Properties
//
// Monitors check raft's safety properties (Raft paper, Figure 3) on what the
// nodes announce: election safety (one leader per term) and the lemma behind
// it, vote safety (one vote per node and term, across restarts); log
// matching (entries with the same index and term hold the same data and
// follow entries of the same term); leader completeness (a leader of a term
// after an entry was committed holds it); state machine safety (nodes apply
// the same entry at an index, and their stores agree after it). A liveness
// monitor turns hot when the nemesis is done (every node up, network healed
// and sound) and cold when an operation proposed after that returns: a
// leader must be elected and a proposal committed within StableWithin. At
// the end, linearize.Check checks the clients' history against
// linearize.KVModel with porcupine.
//
// # Bugs
//
// Three mistakes a user of the library could make, each behind a switch:
//
//   - (a) Config.SendBeforePersist sends a Ready's messages before its
//     HardState and entries are synced. A follower acknowledges entries,
//     crashes before they are on disk, and restarts without them; the
//     leader's heartbeat then carries a commit index beyond the follower's
//     log, and raft itself panics: "tocommit(3) is out of range
//     [lastIndex(2)]. Was the raft log corrupted, truncated, or lost?". The
//     same mistake on a vote (granted, lost in a crash before its sync) lets
//     a node vote twice in a term, which vote-safety reports.
//   - (b) Config.ForgetApplied saves the store but not its applied index: a
//     restarted node is handed the committed entries after its snapshot
//     again and appends twice; state-machine-safety reports that its store
//     after an index differs from another node's.
//   - (c) Config.ForgetVote restarts nodes without their vote. Two
//     candidates in one term, a vote request and a vote lost, and a quick
//     reboot of the voter between them: vote-safety reports "node 3 voted
//     for 2 and for 1 in term 2".
//
// A fourth switch, Config.LeaderReads, lets a node that believes it leads
// answer gets from its own store, without the log: once cut off while
// another leader commits writes, it serves stale values. No raft property
// breaks; only the linearizability check sees it, and porcupine's
// visualisation is attached to the failure.
//
// The correct harness has none of these failures; IsViolation tells a
// safety violation from other failures. "morpheus bench raft" measures the
// hit ratio and time to first hit of each bug per strategy, and runs the
// correct harness at length; BENCHMARKS.md has the figures.
//
// This is a subject system of morpheus's own tools, not part of its API:
// morpheus bench raft measures the strategies on its bugs and morpheus bench
// replay replays its failures, with figures recorded in BENCHMARKS.md. It
// imports only morpheus's public packages, so it can be copied as a worked
// example.
package raft
