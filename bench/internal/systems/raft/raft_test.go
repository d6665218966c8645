package raft_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/systems/raft"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// fixedRuns are the runs the correct harness must pass in go test (a 5-node
// iteration costs about three 3-node ones); the long campaign is morpheus
// bench raft -fixed.
var fixedRuns = []struct {
	nodes      int
	strategy   string
	iterations int
}{
	{3, "random", 80}, {3, "pos+ca", 80}, {3, "pct:5", 60}, {5, "pos+ca", 30},
}

// The correct harness passes, with 3 and 5 nodes, under several strategies,
// with every fault budget spent: no safety monitor, liveness monitor or
// linearizability check fails.
func TestFixedPasses(t *testing.T) {
	for _, r := range fixedRuns {
		t.Run(fmt.Sprintf("%d-nodes/%s", r.nodes, r.strategy), func(t *testing.T) {
			n := r.iterations
			if testing.Short() {
				n /= 5
			}
			stats := &raft.Stats{}
			res := mtest.Explore(t, raft.Test(raft.Config{Nodes: r.nodes, Stats: stats}),
				morpheus.Strategy(r.strategy), morpheus.Seed(2), morpheus.Iterations(n))
			mtest.MustPass(t, res)
			if res.Iterations != n {
				t.Fatalf("%d iterations, want %d", res.Iterations, n)
			}
			// The clients got answers and the nodes applied entries: the
			// harness exercised the cluster.
			// Lagging followers were caught up by snapshots.
			if stats.Ops.Load() < int64(res.Iterations) || stats.Applied.Load() < int64(res.Iterations) || stats.Snapshots.Load() == 0 {
				t.Fatalf("%d iterations, %d client operations returned, %d entries applied, %d snapshots installed",
					res.Iterations, stats.Ops.Load(), stats.Applied.Load(), stats.Snapshots.Load())
			}
			t.Logf("%d iterations: %d client operations returned, %d entries applied, %d snapshots installed",
				res.Iterations, stats.Ops.Load(), stats.Applied.Load(), stats.Snapshots.Load())
		})
	}
}

// bugCases say where each bug is found quickly (a fixed seed and strategy;
// BENCHMARKS.md has the hit ratios) and what the failure says.
var bugCases = []struct {
	bug      raft.Bug
	strategy string
	seed     uint64
	budget   int
	kind     string
	msg      string
}{
	// A follower acknowledged entries it had not written, crashed and lost
	// them: raft's own check sees the leader's commit index beyond its log.
	{raft.SendBeforePersist, "pos", 5, 500, "panic", "Was the raft log corrupted, truncated, or lost?"},
	// A restarted node applied committed appends again.
	{raft.ForgetApplied, "pos", 1, 100, "assertion", "monitor state-machine-safety: "},
	// A restarted node voted a second time in a term.
	{raft.ForgetVote, "pos", 6, 500, "assertion", "monitor vote-safety: "},
}

// Each bug is found, the failure is a safety violation, and its trace
// replays to the same failure.
func TestBugsFound(t *testing.T) {
	for _, c := range bugCases {
		t.Run(string(c.bug), func(t *testing.T) {
			test := raft.Test(raft.Config{}.With(c.bug))
			res := mtest.Explore(t, test, morpheus.Strategy(c.strategy), morpheus.Seed(c.seed), morpheus.Iterations(c.budget))
			f := mtest.MustFail(t, res, c.kind, c.msg)
			if !raft.IsViolation(f.Kind, f.Message) {
				t.Fatalf("not a safety violation: %s: %s", f.Kind, f.Message)
			}
			path := filepath.Join(t.TempDir(), "trace")
			if err := morpheus.WriteTrace(path, f.Trace); err != nil {
				t.Fatal(err)
			}
			rep := mtest.MustFail(t, mtest.Explore(t, test, morpheus.Replay(path)), f.Kind, c.msg)
			if rep.Message != f.Message {
				t.Fatalf("replay failed with\n%s\nwant\n%s", rep.Message, f.Message)
			}
			t.Logf("iteration %d, %d steps: %s", f.Iteration, f.Steps, firstLine(f.Message))
		})
	}
}

// A leader that serves reads from its own store, without a quorum, serves
// stale values once it is cut off and another leader commits writes. No
// raft property is violated; porcupine finds the history not linearizable
// and its visualisation comes with the failure.
func TestLeaderReadsNotLinearizable(t *testing.T) {
	res := mtest.Explore(t, raft.Test(raft.Config{}.With(raft.LeaderReads)),
		morpheus.Strategy("pct:5"), morpheus.Seed(3), morpheus.Iterations(300))
	f := mtest.MustFail(t, res, "assertion", "linearizability: ")
	if !raft.IsViolation(f.Kind, f.Message) || !strings.Contains(f.Message, "are not linearizable") {
		t.Fatalf("%s: %s", f.Kind, f.Message)
	}
	if len(f.Attachments) != 1 || f.Attachments[0].Name != "linearizability.html" ||
		!bytes.Contains(f.Attachments[0].Data, []byte("<title>Porcupine</title>")) {
		t.Fatalf("attachments: %d", len(f.Attachments))
	}
	t.Logf("iteration %d: %s", f.Iteration, firstLine(f.Message))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Same seed, same result: the failing iteration and its trace are byte for
// byte the same with one worker and with two, and so are the step counts
// and schedules of a passing run. Raft's election jitter, drawn from
// crypto/rand, comes from the iteration's own seeded stream.
func TestDeterministic(t *testing.T) {
	c := bugCases[2]
	var want []byte
	wantIter := -1
	for _, workers := range []int{1, 2, 1} {
		res := mtest.Explore(t, raft.Test(raft.Config{}.With(c.bug)), morpheus.Strategy(c.strategy),
			morpheus.Seed(c.seed), morpheus.Iterations(c.budget), morpheus.Workers(workers), mtest.Untimed)
		f := mtest.MustFail(t, res, c.kind, c.msg)
		got := mtest.Encode(t, f.Trace)
		if want == nil {
			want, wantIter = got, f.Iteration
			continue
		}
		if f.Iteration != wantIter || !bytes.Equal(got, want) {
			t.Fatalf("%d workers: iteration %d, want %d; traces equal: %v", workers, f.Iteration, wantIter, bytes.Equal(got, want))
		}
	}
	var steps []int64
	var orders []int
	for _, workers := range []int{1, 2} {
		res := mtest.Explore(t, raft.Test(raft.Config{}), morpheus.Strategy("random"), morpheus.Seed(9),
			morpheus.Iterations(30), morpheus.Workers(workers))
		mtest.MustPass(t, res)
		steps, orders = append(steps, res.Steps), append(orders, res.PartialOrders)
	}
	if steps[0] != steps[1] || orders[0] != orders[1] {
		t.Fatalf("passing run: steps %v, partial orders %v with 1 and 2 workers", steps, orders)
	}
}

func TestConfig(t *testing.T) {
	if s := (raft.Config{}).String(); s != "fixed" {
		t.Errorf("String() = %q", s)
	}
	if s := (raft.Config{}).With(raft.SendBeforePersist).With(raft.ForgetVote).With(raft.LeaderReads).String(); s != "send-before-persist+forget-vote+leader-reads" {
		t.Errorf("String() = %q", s)
	}
	for _, b := range append(raft.Bugs(), raft.LeaderReads) {
		got, err := raft.ParseBug(string(b))
		if err != nil || got != b {
			t.Errorf("ParseBug(%q) = %q, %v", b, got, err)
		}
	}
	if _, err := raft.ParseBug("nosuch"); err == nil || !strings.Contains(err.Error(), `unknown bug "nosuch"`) {
		t.Errorf("ParseBug(nosuch): %v", err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "Config.Nodes is 4; want 3 or 5") {
			t.Errorf("Nodes: 4: recovered %v", p)
		}
	}()
	raft.Test(raft.Config{Nodes: 4})
}

func TestIsViolation(t *testing.T) {
	for _, c := range []struct {
		kind, msg string
		want      bool
	}{
		{"assertion", "monitor election-safety: nodes 1 and 2 are both leaders of term 3", true},
		{"assertion", "monitor vote-safety: node 3 voted for 2 and for 1 in term 2", true},
		{"assertion", "linearizability: 7 operations of 3 clients are not linearizable", true},
		{"panic", "raft: tocommit(3) is out of range [lastIndex(2)]. Was the raft log corrupted, truncated, or lost?", true},
		{"assertion", "liveness", false},
		{"liveness", "no progress: a monitor is still hot", false},
		{"panic", "raft: something else", false},
		{"deadlock", "monitor election-safety: ", false},
	} {
		if got := raft.IsViolation(c.kind, c.msg); got != c.want {
			t.Errorf("IsViolation(%q, %q) = %v", c.kind, c.msg, got)
		}
	}
}
