package raft

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Bug is one of the mistakes a user of the raft library could make, each
// behind a Config switch.
type Bug string

// The bugs.
const (
	SendBeforePersist Bug = "send-before-persist" // (a) Config.SendBeforePersist
	ForgetApplied     Bug = "forget-applied"      // (b) Config.ForgetApplied
	ForgetVote        Bug = "forget-vote"         // (c) Config.ForgetVote
	// LeaderReads is not one of the three above: Config.LeaderReads,
	// found by the linearizability check alone.
	LeaderReads Bug = "leader-reads"
)

// Bugs lists the three bugs in the order of the package doc, (a), (b), (c).
func Bugs() []Bug { return []Bug{SendBeforePersist, ForgetApplied, ForgetVote} }

// ParseBug returns the bug with the given name (one of Bugs, or
// LeaderReads).
func ParseBug(name string) (Bug, error) {
	for _, b := range append(Bugs(), LeaderReads) {
		if string(b) == name {
			return b, nil
		}
	}
	return "", fmt.Errorf("raft: unknown bug %q (want %s, %s, %s or %s)", name, SendBeforePersist, ForgetApplied, ForgetVote, LeaderReads)
}

// With returns c with the bug's switch on.
func (c Config) With(b Bug) Config {
	switch b {
	case SendBeforePersist:
		c.SendBeforePersist = true
	case ForgetApplied:
		c.ForgetApplied = true
	case ForgetVote:
		c.ForgetVote = true
	case LeaderReads:
		c.LeaderReads = true
	default:
		panic(fmt.Sprintf("raft: Config.With(%q): unknown bug", string(b)))
	}
	return c
}

// IsViolation reports whether a failure (its kind and message) is a safety
// violation: a safety monitor's or the linearizability checker's assertion,
// or raft's own check that a follower lost entries its leader counted as
// stored ("tocommit(…) is out of range … Was the raft log corrupted,
// truncated, or lost?", which raft reports by panicking). Liveness failures,
// deadlocks and limits are not. The correct harness has none.
func IsViolation(kind, msg string) bool {
	switch kind {
	case "assertion":
		for _, mon := range []string{MonElectionSafety, MonVoteSafety, MonLogMatching, MonLeaderCompleteness, MonStateMachineSafety} {
			if strings.HasPrefix(msg, "monitor "+mon+": ") {
				return true
			}
		}
		return strings.HasPrefix(msg, "linearizability: ")
	case "panic":
		return strings.HasPrefix(msg, "raft: ") && strings.Contains(msg, "raft log corrupted, truncated, or lost")
	}
	return false
}

// Stats counts, over every iteration that uses a Config holding it, the
// client operations that returned, the entries the nodes applied, and the
// snapshots followers installed from a leader's MsgSnap. It is safe for the
// parallel workers of an exploration; it only counts, and changes nothing
// an iteration does.
type Stats struct {
	Ops, Applied, Snapshots atomic.Int64
}
