package bugs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
)

// C6023 is Cassandra's lightweight-transaction bug CASSANDRA-6023, as the
// Morpheus paper modelled it (§5.1).
//
// Three servers run Paxos for one partition; three clients each propose one
// value (x, y, z) with their own ballot (1, 2, 3): prepare at every server;
// with a majority of promises, re-propose the in-progress value of the
// promise with the highest accepted ballot if there is one newer than the
// most recent commit any promise reports (finishing another client's
// round), else propose their own; with a majority of accepts, commit to
// every server. A server promises a ballot above every ballot it promised,
// accepts a proposal at or above its promise, and on commit records the
// value in its commit history (ordered by ballot, as Cassandra's timestamps
// order writes) and clears an in-progress proposal the commit supersedes.
// Clients do not retry: a client without a majority gives up.
//
// The bug: a promise reports the ballot the server promised where it must
// report the ballot of its last accepted proposal. An old accepted value
// then looks newer than the most recent commit and than values accepted
// since, and a client can re-propose it after another value was committed:
// the same value is committed twice, around another.
//
// The fix: promises report the accepted proposal's own ballot.
//
// Detector: the harness's assertions once every client is done: every
// server's commit history, ordered by ballot with repeats of a value in a
// row removed (re-proposals finishing a round), must be the same, and no
// value may appear twice in it.
func C6023() Scenario {
	return built(Scenario{
		Name:   "C6023",
		Source: "Morpheus §5.1 (Cassandra lightweight transactions, CASSANDRA-6023)",
		Hit: anyOf(hit("assertion", "C6023: ", "committed twice"),
			hit("assertion", "C6023: ", "histories differ")),
		Options: []morpheus.Option{morpheus.ClockLimit(time.Minute), morpheus.MaxSteps(20000)},
	}, c6023Test)

}

// Paxos messages.
type (
	pxPrepare struct {
		Ballot int
		From   morpheus.PID
	}
	// pxPromise answers a prepare. Accepted/Value is the in-progress
	// proposal (Value "" if none), Committed the ballot of the most recent
	// commit.
	pxPromise struct {
		Ballot    int // the prepare's ballot
		OK        bool
		Accepted  int
		Value     string
		Committed int
	}
	pxPropose struct {
		Ballot int
		Value  string
		From   morpheus.PID
	}
	pxAccepted struct {
		Ballot int
		OK     bool
	}
	pxCommit struct {
		Ballot int
		Value  string
	}
	pxHistory struct{}
	pxDone    struct{ Value string }
)

// pxEntry is a committed value.
type pxEntry struct {
	Ballot int
	Value  string
}

// paxosServer is one replica of the partition.
func paxosServer(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		promised, accBallot, committed := 0, 0, 0
		accValue := ""
		var history []pxEntry
		for {
			m := e.Receive(nil)
			v.handled(e)
			switch m := m.(type) {
			case pxPrepare:
				if m.Ballot <= promised {
					e.Send(m.From, pxPromise{Ballot: m.Ballot})
					continue
				}
				promised = m.Ballot
				reported := promised // the bug: the promised ballot
				if v.fixed {
					reported = accBallot
				}
				e.Send(m.From, pxPromise{Ballot: m.Ballot, OK: true, Accepted: reported, Value: accValue, Committed: committed})
			case pxPropose:
				if m.Ballot < promised {
					e.Send(m.From, pxAccepted{Ballot: m.Ballot})
					continue
				}
				promised, accBallot, accValue = m.Ballot, m.Ballot, m.Value
				e.Send(m.From, pxAccepted{Ballot: m.Ballot, OK: true})
			case pxCommit:
				history = append(history, pxEntry(m))
				if m.Ballot >= accBallot {
					accBallot, accValue = 0, "" // the proposal is done
				}
				committed = max(committed, m.Ballot)
			case request:
				answer(e, m, slices.Clone(history))
			}
		}
	}
}

// paxosClient runs one round for value with ballot and tells done what it
// committed ("" if it gave up).
func paxosClient(ballot int, value string, servers []morpheus.PID, done morpheus.PID, v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		majority := len(servers)/2 + 1
		for _, s := range servers {
			e.Send(s, pxPrepare{Ballot: ballot, From: e.Self()})
		}
		var promises []pxPromise
		for nacks := 0; len(promises) < majority; {
			p := e.Receive(func(m any) bool { p, ok := m.(pxPromise); return ok && p.Ballot == ballot }).(pxPromise)
			v.handled(e)
			if !p.OK {
				if nacks++; nacks >= majority {
					e.Send(done, pxDone{})
					return // no retry
				}
				continue
			}
			promises = append(promises, p)
		}
		newest := 0
		for _, p := range promises {
			newest = max(newest, p.Committed)
		}
		best := 0
		for _, p := range promises {
			if p.Value != "" && p.Accepted > newest && p.Accepted > best {
				best, value = p.Accepted, p.Value // finish the in-progress round
			}
		}
		for _, s := range servers {
			e.Send(s, pxPropose{Ballot: ballot, Value: value, From: e.Self()})
		}
		for oks, nacks := 0, 0; oks < majority; {
			a := e.Receive(func(m any) bool { a, ok := m.(pxAccepted); return ok && a.Ballot == ballot }).(pxAccepted)
			v.handled(e)
			if !a.OK {
				if nacks++; nacks >= majority {
					e.Send(done, pxDone{})
					return
				}
				continue
			}
			oks++
		}
		for _, s := range servers {
			e.Send(s, pxCommit{Ballot: ballot, Value: value})
		}
		e.Send(done, pxDone{Value: value})
	}
}

// pxDedup orders a history by ballot and drops repeats of a value in a row.
func pxDedup(h []pxEntry) []string {
	slices.SortStableFunc(h, func(a, b pxEntry) int { return a.Ballot - b.Ballot })
	var out []string
	for _, en := range h {
		if len(out) == 0 || out[len(out)-1] != en.Value {
			out = append(out, en.Value)
		}
	}
	return out
}

// c6023Test runs three servers and three concurrent clients, then checks
// the servers' commit histories.
func c6023Test(v variant) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		servers := make([]morpheus.PID, 3)
		for i := range servers {
			servers[i] = e.NewNode(fmt.Sprintf("s%d", i+1), nil).Spawn("paxos", paxosServer(v))
		}
		values := []string{"x", "y", "z"}
		for i, val := range values {
			e.NewNode("c"+val, nil).Spawn("client", paxosClient(i+1, val, servers, e.Self(), v))
		}
		for range values {
			morpheus.Recv[pxDone](e)
		}
		e.Sleep(time.Second) // quiet: every commit has arrived
		var first []string
		for i, s := range servers {
			h, err := call(e, s, pxHistory{})
			e.Assert(err == nil, "C6023: server exited: %v", err)
			got := pxDedup(h.([]pxEntry))
			for j, v := range got {
				e.Assert(!slices.Contains(got[:j], v), "C6023: value %s committed twice: s%d's history is [%s]", v, i+1, strings.Join(got, " "))
			}
			if i == 0 {
				first = got
			}
			e.Assert(slices.Equal(got, first), "C6023: commit histories differ: s1 [%s], s%d [%s]",
				strings.Join(first, " "), i+1, strings.Join(got, " "))
		}
	}
}
