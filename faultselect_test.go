package morpheus_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/trace"
)

// The messages of a primary-backup register (replicated).
type (
	put       struct{ from morpheus.PID }
	putAck    struct{}
	replicate struct {
		from morpheus.PID
		n    int
	}
	replicated struct{ n int }
)

func (p put) String() string        { return "put" }
func (putAck) String() string       { return "put-ack" }
func (r replicate) String() string  { return "replicate" }
func (r replicated) String() string { return "replicated" }

// replicatedPut is a test of one put to a primary that replicates it to a
// backup before it acknowledges. With retry the primary resends the
// replication until the backup acknowledges it, so that a lost replication
// message costs time only; the client does not retry, and gives up after a
// second. A liveness monitor owes the client's acknowledgement. faults
// gives the network's faults, with the nodes and the client to select by.
func replicatedPut(retry bool, faults func(client morpheus.PID, primary, backup *morpheus.Node) morpheus.Faults) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		e.AddMonitor("ack", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) {
			if ev == "put" {
				m.Hot("owed")
			} else {
				m.Cold("acknowledged")
			}
		}))
		pn, bn := e.NewNode("p", nil), e.NewNode("b", nil)
		backup := bn.Spawn("backup", func(e *morpheus.Env) {
			for {
				r := morpheus.Recv[replicate](e)
				e.Send(r.from, replicated{r.n})
			}
		})
		primary := pn.Spawn("primary", func(e *morpheus.Env) {
			for n := 0; ; n++ {
				p := morpheus.Recv[put](e)
				for {
					e.Send(backup, replicate{e.Self(), n})
					if !retry {
						morpheus.Recv[replicated](e)
						break
					}
					if _, ok := morpheus.RecvTimeout[replicated](e, 100*time.Millisecond); ok {
						break
					}
				}
				e.Send(p.from, putAck{})
			}
		})
		client := e.NewNode("c", nil).Spawn("client", func(e *morpheus.Env) {
			e.Announce("put")
			e.Send(primary, put{e.Self()})
			if _, ok := morpheus.RecvTimeout[putAck](e, time.Second); ok {
				e.Announce("ack")
			}
		})
		e.SetFaults(faults(client, pn, bn))
	}
}

func dropOne(client morpheus.PID, p, b *morpheus.Node) morpheus.Faults {
	return morpheus.Faults{Drop: 0.2, MaxDrops: 1}
}

// Unselected faults strike the client's own request or its reply, and the
// liveness test fails on that, not on what it was written for; faults kept
// to the replication link (or off the client's traffic) let it pass, since
// the primary retries a lost replication.
func TestFaultsOnlyKeepsClientReliable(t *testing.T) {
	opts := []morpheus.Option{morpheus.Iterations(300), morpheus.Seed(1)}
	f := mustFail(t, explore(t, replicatedPut(true, dropOne), opts...), "liveness", "monitor ack is hot")
	var lost []string
	for i := range f.Trace.Events {
		if e := &f.Trace.Events[i]; trace.FaultOutcome(e) == "drop" {
			lost = append(lost, f.Trace.TaskName(e.Task)+" "+f.Trace.Detail(e))
		}
	}
	if len(lost) != 1 || !strings.Contains(lost[0], "client") {
		t.Fatalf("dropped %q; want the client's put or its ack", lost)
	}

	for _, c := range []struct {
		name string
		only func(client morpheus.PID, p, b *morpheus.Node) morpheus.MsgFilter
	}{
		{"between", func(_ morpheus.PID, p, b *morpheus.Node) morpheus.MsgFilter {
			return morpheus.Between([]*morpheus.Node{p}, []*morpheus.Node{b})
		}},
		{"not involving", func(c morpheus.PID, _, _ *morpheus.Node) morpheus.MsgFilter {
			return morpheus.Not(morpheus.Involving(c))
		}},
		{"not named", func(morpheus.PID, *morpheus.Node, *morpheus.Node) morpheus.MsgFilter {
			return morpheus.Not(morpheus.Named("client"))
		}},
		{"of type", func(morpheus.PID, *morpheus.Node, *morpheus.Node) morpheus.MsgFilter {
			isReplicate, isReplicated := morpheus.OfType[replicate](), morpheus.OfType[replicated]()
			return func(m morpheus.Msg) bool { return isReplicate(m) || isReplicated(m) }
		}},
	} {
		only := c.only
		t.Run(c.name, func(t *testing.T) {
			res := explore(t, replicatedPut(true, func(c morpheus.PID, p, b *morpheus.Node) morpheus.Faults {
				f := dropOne(c, p, b)
				f.Only = only(c, p, b)
				return f
			}), opts...)
			mustPass(t, res)
		})
	}
}

// replicationOnly keeps every fault on the link between primary and backup.
func replicationOnly(faults morpheus.Faults) func(morpheus.PID, *morpheus.Node, *morpheus.Node) morpheus.Faults {
	return func(_ morpheus.PID, p, b *morpheus.Node) morpheus.Faults {
		f := faults // a copy: iterations run this at once on several workers
		f.Only = morpheus.Between([]*morpheus.Node{p}, []*morpheus.Node{b})
		return f
	}
}

// With faults kept to replication, a primary that does not retry is found
// by the loss of a replication message, and the trace, the report's last
// steps and the step table say so in words.
func TestFaultDecisionsRender(t *testing.T) {
	f := mustFail(t, explore(t, replicatedPut(false, replicationOnly(morpheus.Faults{Drop: 0.2, MaxDrops: 1})), morpheus.Iterations(300)),
		"liveness", "monitor ack is hot")
	var out bytes.Buffer
	if err := trace.Render(&out, f.Trace, 0, -1); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	want := []string{"drop → backup@b replicate", "drop → primary@p replicated"}
	if !strings.Contains(text, want[0]) && !strings.Contains(text, want[1]) {
		t.Fatalf("no dropped replication message in the rendering:\n%s", text)
	}
	if strings.Contains(text, "choose  = ") {
		t.Errorf("a fault decision renders as a bare choice:\n%s", text)
	}
	report := f.Report()
	if !strings.Contains(report, want[0]) && !strings.Contains(report, want[1]) {
		t.Errorf("the report's steps do not name the drop:\n%s", report)
	}
	// A decision's detail is the same in the file's rendering.
	var file bytes.Buffer
	if err := trace.Encode(&file, f.Trace); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(file.String(), "flags=dropped,fault") {
		t.Errorf("no fault decision in the file:\n%s", file.String())
	}
	back, err := trace.Decode(&file, "t")
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := trace.Render(&again, back, 0, -1); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Errorf("a decoded trace renders differently:\n%s\nwant:\n%s", again.String(), text)
	}
}

// Messages the selection excludes take no choice: a run whose traffic is
// all excluded has no choice at all in its trace, and one that selects
// replication only decides about replication only.
func TestFaultsOnlyExcludedTakeNoChoice(t *testing.T) {
	all := morpheus.Faults{Drop: 0.3, Duplicate: 0.3, Delay: 0.3, DelayFor: time.Millisecond, Reorder: true}
	cases := []struct {
		name   string
		faults func(morpheus.PID, *morpheus.Node, *morpheus.Node) morpheus.Faults
		want   func(receiver string) bool
	}{
		{"none", func(morpheus.PID, *morpheus.Node, *morpheus.Node) morpheus.Faults {
			f := all
			f.Only = func(morpheus.Msg) bool { return false }
			return f
		}, func(string) bool { return false }},
		{"replication", replicationOnly(all), func(r string) bool { return r == "backup@b" || r == "primary@p" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			decisions := 0
			for seed := range uint64(20) {
				test := func(e *morpheus.Env) {
					replicatedPut(true, c.faults)(e)
					e.Sleep(time.Minute)
					e.Fatalf("end") // a failure, for its trace
				}
				f := mustFail(t, explore(t, test, morpheus.Seed(seed), morpheus.Iterations(1)), "assertion", "end")
				for i := range f.Trace.Events {
					e := &f.Trace.Events[i]
					if e.Kind != trace.KindChoose {
						continue
					}
					decisions++
					if r := f.Trace.TaskName(e.Obj); e.Flag&trace.FlagFault == 0 || !c.want(r) {
						t.Fatalf("seed %d: a choice %s %q for a message to %s", seed, f.Trace.TaskName(e.Task), f.Trace.Detail(e), r)
					}
				}
			}
			if c.name != "none" && decisions == 0 {
				t.Fatal("no fault decision at all")
			}
		})
	}
}

// Each filter selects what it says: under Drop 1 exactly the selected
// messages are lost.
func TestMsgFilters(t *testing.T) {
	type hello struct{ n int }
	var got []int
	run := func(only func(main morpheus.PID, a, b *morpheus.Node, pa, pb morpheus.PID) morpheus.MsgFilter) []int {
		got = nil
		res := explore(t, func(e *morpheus.Env) {
			a, b := e.NewNode("a", nil), e.NewNode("b", nil)
			main := e.Self()
			echo := func(e *morpheus.Env) {
				for {
					m := e.Receive(nil)
					if h, ok := m.(hello); ok {
						e.Send(main, h)
					}
				}
			}
			pa, pb := a.Spawn("echo", echo), b.Spawn("echo", echo)
			e.SetFaults(morpheus.Faults{Drop: 1, Only: only(main, a, b, pa, pb)})
			e.Send(pa, hello{1}) // main → a, a → main
			e.Send(pb, hello{2}) // main → b, b → main
			e.Send(pa, "x")      // a string main → a, no reply
			for {
				h, ok := morpheus.RecvTimeout[hello](e, time.Second)
				if !ok {
					break
				}
				got = append(got, h.n)
			}
			slices.Sort(got)
		}, morpheus.Iterations(1))
		mustPass(t, res)
		return got
	}
	nodes := func(ns ...*morpheus.Node) []*morpheus.Node { return ns }
	for _, c := range []struct {
		name string
		only func(main morpheus.PID, a, b *morpheus.Node, pa, pb morpheus.PID) morpheus.MsgFilter
		want []int
	}{
		{"nil", func(morpheus.PID, *morpheus.Node, *morpheus.Node, morpheus.PID, morpheus.PID) morpheus.MsgFilter {
			return nil
		}, nil},
		{"one way to a", func(m morpheus.PID, a, b *morpheus.Node, _, _ morpheus.PID) morpheus.MsgFilter {
			return morpheus.OneWay(nodes(m.Node()), nodes(a))
		}, []int{2}},
		{"one way from b", func(m morpheus.PID, a, b *morpheus.Node, _, _ morpheus.PID) morpheus.MsgFilter {
			return morpheus.OneWay(nodes(b), nodes(m.Node()))
		}, []int{1}},
		{"between a and b", func(m morpheus.PID, a, b *morpheus.Node, _, _ morpheus.PID) morpheus.MsgFilter {
			return morpheus.Between(nodes(a), nodes(b))
		}, []int{1, 2}},
		{"between harness and b", func(m morpheus.PID, a, b *morpheus.Node, _, _ morpheus.PID) morpheus.MsgFilter {
			return morpheus.Between(nodes(b), nodes(m.Node()))
		}, []int{1}},
		{"involving pa", func(_ morpheus.PID, _, _ *morpheus.Node, pa, _ morpheus.PID) morpheus.MsgFilter {
			return morpheus.Involving(pa)
		}, []int{2}},
		{"named echo", func(morpheus.PID, *morpheus.Node, *morpheus.Node, morpheus.PID, morpheus.PID) morpheus.MsgFilter {
			return morpheus.Named("echo")
		}, nil},
		{"named echo@b", func(morpheus.PID, *morpheus.Node, *morpheus.Node, morpheus.PID, morpheus.PID) morpheus.MsgFilter {
			return morpheus.Named("echo@b")
		}, []int{1}},
		{"named main", func(morpheus.PID, *morpheus.Node, *morpheus.Node, morpheus.PID, morpheus.PID) morpheus.MsgFilter {
			return morpheus.Named("main")
		}, nil},
		{"of type string", func(morpheus.PID, *morpheus.Node, *morpheus.Node, morpheus.PID, morpheus.PID) morpheus.MsgFilter {
			return morpheus.OfType[string]()
		}, []int{1, 2}},
		{"not of type string", func(morpheus.PID, *morpheus.Node, *morpheus.Node, morpheus.PID, morpheus.PID) morpheus.MsgFilter {
			return morpheus.Not(morpheus.OfType[string]())
		}, nil},
		{"select nothing", func(morpheus.PID, *morpheus.Node, *morpheus.Node, morpheus.PID, morpheus.PID) morpheus.MsgFilter {
			return func(morpheus.Msg) bool { return false }
		}, []int{1, 2}},
	} {
		if g := run(c.only); !slices.Equal(g, c.want) {
			t.Errorf("%s: received %v, want %v", c.name, g, c.want)
		}
	}
}

// A partition cuts the messages across it whatever Only selects: the
// client's put or its ack, which no fault may strike, is lost to it.
func TestFaultsOnlyComposesWithPartition(t *testing.T) {
	f := mustFail(t, explore(t, func(e *morpheus.Env) {
		replicatedPut(true, replicationOnly(morpheus.Faults{Drop: 0.2, MaxDrops: 1}))(e)
		e.Partition([]*morpheus.Node{e.Node("c")}, []*morpheus.Node{e.Node("p")})
	}, morpheus.Iterations(50)), "liveness", "monitor ack is hot")
	cut := false
	for i := range f.Trace.Events {
		e := &f.Trace.Events[i]
		client := f.Trace.TaskName(e.Task) == "client@c" || e.Obj >= 0 && f.Trace.TaskName(e.Obj) == "client@c"
		if e.Kind == trace.KindChoose && client {
			t.Fatalf("a fault decision for the client's traffic: %s", f.Trace.Detail(e))
		}
		cut = cut || e.Kind == trace.KindSend && e.Flag&trace.FlagDropped != 0 && client
	}
	if !cut {
		t.Fatal("the partition did not cut the client's put or its ack")
	}
}

// A trace with selected faults replays byte for byte.
func TestFaultsOnlyReplay(t *testing.T) {
	test := replicatedPut(false, replicationOnly(morpheus.Faults{Drop: 0.1, Duplicate: 0.2, Delay: 0.2, Reorder: true}))
	f := mustFail(t, explore(t, test, morpheus.Iterations(500)), "liveness", "monitor ack is hot")
	path := filepath.Join(t.TempDir(), "t")
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	g := mustFail(t, explore(t, test, morpheus.Replay(path)), "liveness", "monitor ack is hot")
	if !bytes.Equal(encode(t, stripHeader(g.Trace)), encode(t, stripHeader(f.Trace))) {
		t.Fatal("replay differs")
	}
}
