package morpheus_test

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// sendN has a process on n1 send 0..n-1 to main on the harness node, and main
// receive what arrives within a second.
func sendN(e *morpheus.Env, n int) []int {
	main := e.Self()
	e.NewNode("n1", nil).Spawn("sender", func(e *morpheus.Env) {
		for i := range n {
			e.Send(main, i)
		}
	})
	var got []int
	for {
		m, ok := morpheus.RecvTimeout[int](e, time.Second)
		if !ok {
			return got
		}
		got = append(got, m)
	}
}

func TestFaultDrop(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		e.SetFaults(morpheus.Faults{Drop: 0.2})
		got := sendN(e, 4)
		e.Assert(len(got) == 4, "received %v", got)
	}, morpheus.Iterations(200))
	f := mustFail(t, res, "assertion", "received")
	dropped := 0
	for _, ev := range f.Trace.Events {
		if ev.Kind == trace.KindSend && ev.Flag&trace.FlagDropped != 0 {
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatal("no send marked dropped in the trace")
	}
	// The budget holds: never more than one message lost.
	res = explore(t, func(e *morpheus.Env) {
		e.SetFaults(morpheus.Faults{Drop: 0.5, MaxDrops: 1})
		got := sendN(e, 4)
		e.Assert(len(got) >= 3, "received %v", got)
	}, morpheus.Iterations(300))
	mustPass(t, res)
}

func TestFaultDuplicateAndReorder(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		e.SetFaults(morpheus.Faults{Duplicate: 0.3})
		got := sendN(e, 3)
		e.Assert(len(got) == 3, "received %v", got)
	}, morpheus.Iterations(200))
	mustFail(t, res, "assertion", "received")

	inOrder := func(e *morpheus.Env, f morpheus.Faults) {
		e.SetFaults(f)
		got := sendN(e, 3)
		for i, v := range got {
			e.Assert(v == i, "out of order: %v", got)
		}
	}
	res = explore(t, func(e *morpheus.Env) { inOrder(e, morpheus.Faults{Reorder: true}) }, morpheus.Iterations(200))
	mustFail(t, res, "assertion", "out of order")
	res = explore(t, func(e *morpheus.Env) { inOrder(e, morpheus.Faults{Delay: 0.5}) }, morpheus.Iterations(200))
	mustFail(t, res, "assertion", "out of order")
	res = explore(t, func(e *morpheus.Env) { inOrder(e, morpheus.Faults{}) }, morpheus.Iterations(200))
	mustPass(t, res)
}

// A trace with faults replays exactly: fates are recorded choices.
func TestFaultsReplay(t *testing.T) {
	test := func(e *morpheus.Env) {
		e.SetFaults(morpheus.Faults{Drop: 0.1, Duplicate: 0.1, Delay: 0.2})
		got := sendN(e, 5)
		e.Assert(len(got) == 5, "received %v", got)
	}
	f := mustFail(t, explore(t, test, morpheus.Iterations(500)), "assertion", "received")
	path := filepath.Join(t.TempDir(), "t")
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	g := mustFail(t, explore(t, test, morpheus.Replay(path)), "assertion", "received")
	if !bytes.Equal(encode(t, stripHeader(g.Trace)), encode(t, stripHeader(f.Trace))) {
		t.Fatal("replay differs")
	}
}

func TestPartitionHeal(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		a, b := e.NewNode("a", nil), e.NewNode("b", nil)
		main := e.Self()
		pb := b.Spawn("echo", func(e *morpheus.Env) {
			for {
				m := morpheus.Recv[string](e)
				e.Send(main, m)
			}
		})
		pa := a.Spawn("relay", func(e *morpheus.Env) {
			for {
				e.Send(pb, morpheus.Recv[string](e))
			}
		})
		e.Partition([]*morpheus.Node{a}, []*morpheus.Node{b})
		e.Send(pa, "lost")
		_, ok := morpheus.RecvTimeout[string](e, time.Second)
		e.Assert(!ok, "a message crossed the partition")
		e.Heal()
		e.Send(pa, "found")
		m, ok := morpheus.RecvTimeout[string](e, time.Second)
		e.Assert(ok && m == "found", "after heal: %q %v", m, ok)
	}, morpheus.Iterations(200))
	mustPass(t, res)
}

func TestDiskSurvivesOnlySynced(t *testing.T) {
	res := explore(t, func(e *morpheus.Env) {
		n := e.NewNode("db", nil)
		main := e.Self()
		n.Spawn("writer", func(e *morpheus.Env) {
			d := n.Disk()
			d.Write("a", 1)
			d.Sync()
			d.Write("b", 2)
			v, _ := d.Read("b")
			e.Assert(v == 2, "read %v before sync", v)
			e.Send(main, "written")
		})
		morpheus.Recv[string](e)
		n.Crash()
		n.Restart()
		d := n.Disk()
		a, okA := d.Read("a")
		_, okB := d.Read("b")
		e.Assert(okA && a == 1 && !okB, "after crash: a=%v,%v b lost=%v", a, okA, !okB)
	}, morpheus.Iterations(100))
	mustPass(t, res)
}

// A bug that needs a crash at the right moment: a write acknowledged before
// it is synced is lost if the node crashes in between.
func TestChaosFindsUnsyncedAck(t *testing.T) {
	test := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			db := e.NewNode("db", nil)
			main := e.Self()
			db.Spawn("store", func(e *morpheus.Env) {
				d := db.Disk()
				d.Write("k", "v")
				if fixed {
					d.Sync()
				}
				e.Send(main, "ack")
				d.Sync()
			})
			e.Chaos([]*morpheus.Node{db}, 1, true)
			if _, acked := morpheus.RecvTimeout[string](e, time.Second); !acked {
				return // crashed before the ack: nothing was promised
			}
			e.Sleep(time.Second) // let the chaos run
			_, ok := db.Disk().Read("k")
			e.Assert(ok, "acknowledged write lost")
		}
	}
	mustFail(t, explore(t, test(false), morpheus.Iterations(2000)), "assertion", "acknowledged write lost")
	mustPass(t, explore(t, test(true), morpheus.Iterations(2000)))
}

// A disk write and a crash of its node conflict: which comes first decides
// what survives, so conflict analysis and partial orders must see the pair.
func TestDiskOpsConflictWithCrash(t *testing.T) {
	test := func(e *morpheus.Env) {
		n := e.NewNode("db", nil)
		n.Spawn("writer", func(e *morpheus.Env) {
			n.Disk().Write("a", 1)
			n.Disk().Sync()
		})
		n.Crash()
		e.Fatalf("done") // a failure, for its trace
	}
	checked := 0
	for seed := uint64(1); seed <= 40; seed++ {
		res, err := morpheus.Explore(test, morpheus.Iterations(1), morpheus.Strategy("random"),
			morpheus.Seed(seed), morpheus.Shrink(0))
		if err != nil {
			t.Fatal(err)
		}
		tr := res.Failure.Trace
		crash, write := -1, -1
		for i, ev := range tr.Events {
			switch ev.Kind {
			case trace.KindCrash:
				crash = i
			case trace.KindDiskWrite:
				write = i
			}
		}
		if write < 0 {
			continue // the crash came first: nothing was written
		}
		checked++
		found := false
		hb.ConflictPairs(tr, func(i, j int) { found = found || i == write && j == crash })
		if !found {
			t.Fatalf("seed %d: the disk write (event %d) and the crash (event %d) do not conflict:\n%s",
				seed, write, crash, res.Failure.FullReport())
		}
	}
	if checked == 0 {
		t.Fatal("no schedule wrote before the crash")
	}
}
