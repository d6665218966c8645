// Package sweep names the tests whose failures morpheus bench replay saves
// and replays in a fresh process: the bug suites (internal/bugs, the
// shared-memory suite internal/sct), the raft and key-value systems
// (internal/systems) with their bugs and faults, node crashes by Chaos with
// a liveness monitor, faults kept to replication (Faults.Only) with a
// liveness monitor, and random programs (internal/randprog). A name stands
// for the same test in every process, which is what a replay in another
// process needs.
package sweep

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/bugs"
	"github.com/morpheus-go/morpheus/bench/internal/randprog"
	"github.com/morpheus-go/morpheus/bench/internal/sct"
	"github.com/morpheus-go/morpheus/bench/internal/systems/kv"
	"github.com/morpheus-go/morpheus/bench/internal/systems/raft"
	"github.com/morpheus-go/morpheus/internal/programs"
)

// Source is a test that fails in some schedules.
type Source struct {
	Name    string
	Test    func(*morpheus.Env)
	Options []morpheus.Option // the limits it needs, for exploring and replaying alike
}

// Sources returns the named tests, with random programs of seeds 0 to
// random-1.
func Sources(random int) []Source {
	var out []Source
	for _, s := range append(bugs.All(), bugs.Extra()...) {
		out = append(out, Source{"bugs/" + s.Name, s.Test(false), s.Options})
	}
	for _, c := range sct.Cases() {
		out = append(out, Source{"sct/" + c.Name, c.Buggy, nil})
	}
	for _, b := range append(raft.Bugs(), raft.LeaderReads) {
		out = append(out, Source{"raft/" + string(b), raft.Test(raft.Config{}.With(b)), nil})
	}
	out = append(out,
		Source{"kv/backup-reads-drops", kv.Test(kv.Config{BackupReads: true, Drops: 1}), nil},
		Source{"chaos/ping-liveness", programs.PingLiveness, []morpheus.Option{morpheus.ClockLimit(programs.PingLivenessLimit)}},
		Source{"chaos/restart", restartedCounter, nil},
		Source{"faults/replication-only", replicatedPut, nil},
	)
	for seed := range random {
		out = append(out, Source{randprog.Name(uint64(seed)), randprog.Program(uint64(seed)), nil})
	}
	return out
}

// Lookup returns the source with the given name.
func Lookup(name string) (Source, error) {
	if s, ok := strings.CutPrefix(name, "random-"); ok {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return Source{}, fmt.Errorf("sweep: bad random program name %q", name)
		}
		return Source{name, randprog.Program(seed), nil}, nil
	}
	for _, s := range Sources(0) {
		if s.Name == name {
			return s, nil
		}
	}
	return Source{}, fmt.Errorf("sweep: no test named %q", name)
}

// restartedCounter: a counter process keeps its count on disk but syncs it
// only every other increment; a crash and restart in between loses
// acknowledged increments, which the client's final read shows.
func restartedCounter(e *morpheus.Env) {
	var n *morpheus.Node
	n = e.NewNode("db", func(e *morpheus.Env) {
		e.Register("counter")
		d := n.Disk()
		v, _ := d.Read("count")
		count, _ := v.(int)
		for {
			from := morpheus.Recv[morpheus.PID](e)
			count++
			d.Write("count", count)
			if count%2 == 0 {
				d.Sync()
			}
			e.Send(from, count)
		}
	})
	e.Chaos([]*morpheus.Node{n}, 1, true)
	acked := 0
	for range 3 {
		if c := e.Whereis(n, "counter"); c != (morpheus.PID{}) {
			e.Send(c, e.Self())
			if v, ok := morpheus.RecvTimeout[int](e, time.Second); ok {
				acked = max(acked, v)
			}
		}
	}
	e.Sleep(time.Second)
	v, _ := n.Disk().Read("count")
	got, _ := v.(int)
	e.Assert(got >= acked, "acknowledged %d increments, the disk has %d", acked, got)
}
