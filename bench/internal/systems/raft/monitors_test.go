package raft

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// announce runs one iteration that announces events to the monitors.
func announce(t *testing.T, events ...any) *morpheus.Result {
	t.Helper()
	return mtest.Explore(t, func(e *morpheus.Env) {
		addMonitors(e)
		for _, ev := range events {
			e.Announce(ev)
		}
	}, morpheus.Iterations(1))
}

func has(entries map[uint64]uint64) func(index, term uint64) bool {
	return func(index, term uint64) bool { return entries[index] == term }
}

// Each safety monitor accepts what raft allows and fails on a violation,
// with a message naming the nodes, terms and indexes.
func TestMonitors(t *testing.T) {
	leader := func(node, term uint64) BecameLeader {
		return BecameLeader{Node: node, Term: term, Has: has(nil)}
	}
	cases := []struct {
		name   string
		events []any
		fail   string // "" if the events are fine
	}{
		{"one leader per term", []any{leader(1, 2), leader(2, 3), leader(1, 2)}, ""},
		{"two leaders", []any{leader(1, 2), leader(2, 2)},
			"monitor election-safety: nodes 1 and 2 are both leaders of term 2"},
		{"one vote per term", []any{VoteGranted{3, 1, 2}, VoteGranted{3, 1, 2}, VoteGranted{3, 2, 3}}, ""},
		{"two votes", []any{VoteGranted{3, 1, 2}, VoteGranted{3, 2, 2}},
			"monitor vote-safety: node 3 voted for 1 and for 2 in term 2"},
		{"matching logs", []any{
			LogWritten{1, []EntryInfo{{2, 2, 1, 7}, {3, 2, 2, 8}}},
			LogWritten{2, []EntryInfo{{2, 2, 1, 7}, {3, 3, 2, 9}}}}, ""},
		{"same entry, other data", []any{
			LogWritten{1, []EntryInfo{{2, 2, 1, 7}}}, LogWritten{2, []EntryInfo{{2, 2, 1, 8}}}},
			"monitor log-matching: entry 2 of term 2 differs between nodes 1 and 2"},
		{"same entry, other predecessor", []any{
			LogWritten{1, []EntryInfo{{3, 2, 1, 7}}}, LogWritten{2, []EntryInfo{{3, 2, 2, 7}}}},
			"previous term 1/2"},
		{"complete leader", []any{
			HardStateSaved{1, 2, 1}, Applied{Node: 1, Index: 2, Term: 2, Data: 5, Digest: 1},
			BecameLeader{Node: 2, Term: 3, Has: has(map[uint64]uint64{2: 2})}}, ""},
		{"stale leader", []any{ // elected in the commit's term or before: not bound
			HardStateSaved{1, 3, 1}, Applied{Node: 1, Index: 2, Term: 2, Data: 5, Digest: 1}, leader(2, 3)}, ""},
		{"incomplete leader", []any{
			HardStateSaved{1, 2, 1}, Applied{Node: 1, Index: 2, Term: 2, Data: 5, Digest: 1}, leader(2, 3)},
			"monitor leader-completeness: node 2 leads term 3 without entry 2 of term 2, committed by term 2"},
		{"same applies", []any{
			Applied{Node: 1, Index: 2, Term: 2, Data: 5, Digest: 1}, Applied{Node: 2, Index: 2, Term: 2, Data: 5, Digest: 1},
			Applied{Node: 3, Index: 2, Term: 2, Digest: 1, Snapshot: true}}, ""},
		{"different entries", []any{
			Applied{Node: 1, Index: 2, Term: 2, Data: 5, Digest: 1}, Applied{Node: 2, Index: 2, Term: 3, Data: 6, Digest: 1}},
			"monitor state-machine-safety: nodes 1 and 2 applied different entries at index 2 (terms 2 and 3)"},
		{"applied twice", []any{
			Applied{Node: 1, Index: 2, Term: 2, Data: 5, Digest: 1}, Applied{Node: 1, Index: 2, Term: 2, Data: 5, Digest: 4}},
			"monitor state-machine-safety: node 1's store after index 2 differs from node 1's"},
		{"progress", []any{FaultsOver{}, Progress{}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := announce(t, c.events...)
			if c.fail == "" {
				mtest.MustPass(t, res)
				return
			}
			mtest.MustFail(t, res, "assertion", c.fail)
		})
	}
}

// The liveness monitor fails an iteration that stays without progress
// beyond StableWithin once the faults are over.
func TestLivenessMonitor(t *testing.T) {
	res := mtest.Explore(t, func(e *morpheus.Env) {
		addMonitors(e)
		e.Announce(FaultsOver{})
		for { // no leader, no commit: time passes
			e.Sleep(Tick)
		}
	}, morpheus.Iterations(1))
	f := mtest.MustFail(t, res, "liveness", "monitor liveness is hot")
	if !strings.Contains(f.Message, "longer than its limit of "+StableWithin.String()) || f.Clock > StableWithin+2*Tick {
		t.Fatalf("failure at %v: %s", f.Clock, f.Message)
	}
}
