package strategy_test

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// caTrace has tasks with keys 100 and 101: events 0 and 1 write resource 1
// without synchronization (a conflict), event 2 writes a private resource,
// event 4 reads a resource nobody writes.
func caTrace() *trace.Trace {
	return &trace.Trace{
		Tasks: []trace.Task{{ID: 0, Parent: -1, Key: 100}, {ID: 1, Parent: -1, Key: 101}},
		Events: []trace.Event{
			{Task: 0, Kind: trace.KindYield, Res: 1, Loc: 10},
			{Task: 1, Kind: trace.KindYield, Res: 1, Loc: 20},
			{Task: 0, Kind: trace.KindYield, Res: 2, Loc: 11},
			{Task: -1, Kind: trace.KindClock, Val: 5},
			{Task: 1, Kind: trace.KindYield, Res: 3, Flag: trace.FlagRead, Loc: 21},
			{Task: 0, Kind: trace.KindYield, Res: 3, Flag: trace.FlagRead, Loc: 12},
		},
	}
}

func TestTableLearn(t *testing.T) {
	tb := strategy.NewTable()
	tb.Learn(caTrace())
	for _, c := range []struct {
		sig                    strategy.Sig
		seen, confl, predicted bool
	}{
		{strategy.Sig{Task: 100, Loc: 10}, true, true, false},
		{strategy.Sig{Task: 101, Loc: 20}, true, true, false},
		{strategy.Sig{Task: 100, Loc: 11}, true, false, true},
		{strategy.Sig{Task: 101, Loc: 21}, true, false, true},
		{strategy.Sig{Task: 100, Loc: 12}, true, false, true},
		{strategy.Sig{Task: 101, Loc: 10}, false, false, false}, // never seen: predicted to conflict
	} {
		seen, confl := tb.Lookup(c.sig)
		if seen != c.seen || confl != c.confl || tb.Independent(c.sig) != c.predicted {
			t.Errorf("%v: seen %v conflicted %v independent %v, want %v %v %v",
				c.sig, seen, confl, tb.Independent(c.sig), c.seen, c.confl, c.predicted)
		}
	}
	if tb.Len() != 5 {
		t.Errorf("Len = %d, want 5", tb.Len())
	}
	// A conflict seen once marks the signature for good.
	tr := caTrace()
	tr.Events[1].Res = 9
	tb.Learn(tr)
	if _, confl := tb.Lookup(strategy.Sig{Task: 100, Loc: 10}); !confl {
		t.Error("learning a trace without the conflict forgot it")
	}
}

func TestTableAssess(t *testing.T) {
	tb := strategy.NewTable()
	// Predicted independent: {100,10} (wrongly: it conflicts) and {100,11}.
	tb.Mark(strategy.Sig{Task: 100, Loc: 10}, false)
	tb.Mark(strategy.Sig{Task: 100, Loc: 11}, false)
	// Predicted conflicting: {101,21} (wrongly) and the unseen ones.
	tb.Mark(strategy.Sig{Task: 101, Loc: 21}, true)
	st := tb.Assess(caTrace())
	want := strategy.CAStats{Iterations: 1, Ops: 5, Conflicts: 2, FalseNegatives: 1, FalsePositives: 2}
	if st != want {
		t.Errorf("Assess = %+v, want %+v", st, want)
	}
	st.Add(st)
	if st.Ops != 10 || st.Iterations != 2 || !strings.Contains(st.String(), "5.00 ops, 2.00 in a conflict, 1.00 run at once though in a conflict (missed: false negatives), 2.00 scheduled though in none (needless choices: false positives)") {
		t.Errorf("Add/String: %+v %s", st, st)
	}
}

// where and loc map locations to text and back, as a process's program
// counters would be.
func where(l uint64) string { return fmt.Sprintf("file.go:%d", l) }
func loc(s string) uint64 {
	n, _ := strconv.ParseUint(strings.TrimPrefix(s, "file.go:"), 10, 64)
	return n
}

func save(t *testing.T, tb *strategy.Table) string {
	t.Helper()
	var b bytes.Buffer
	if err := tb.Save(&b, where); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestTableMergeSaveLoad(t *testing.T) {
	a, b := strategy.NewTable(), strategy.NewTable()
	a.Learn(caTrace())
	tr := caTrace()
	tr.Events[1].Res = 9 // no conflict here
	tr.Events = append(tr.Events, trace.Event{Task: 1, Kind: trace.KindYield, Res: 2, Loc: 22})
	b.Learn(tr) // {101,22} conflicts with {100,11}
	ab, ba := a.Clone(), b.Clone()
	ab.Merge(b)
	ba.Merge(a)
	text := save(t, ab)
	if text != save(t, ba) {
		t.Fatalf("merge order changed the table:\n%s\nvs\n%s", text, save(t, ba))
	}
	want := strategy.NewTable()
	want.Mark(strategy.Sig{Task: 100, Loc: 10}, true)
	want.Mark(strategy.Sig{Task: 100, Loc: 11}, true)
	want.Mark(strategy.Sig{Task: 100, Loc: 12}, false)
	want.Mark(strategy.Sig{Task: 101, Loc: 20}, true)
	want.Mark(strategy.Sig{Task: 101, Loc: 21}, false)
	want.Mark(strategy.Sig{Task: 101, Loc: 22}, true)
	if text != save(t, want) {
		t.Errorf("merged table:\n%s\nwant\n%s", text, save(t, want))
	}
	golden := `morpheus-ca-table 1
0000000000000064 c file.go:10
0000000000000064 c file.go:11
0000000000000064 s file.go:12
0000000000000065 c file.go:20
0000000000000065 s file.go:21
0000000000000065 c file.go:22
`
	if text != golden {
		t.Errorf("Save wrote\n%s\nwant\n%s", text, golden)
	}
	back := strategy.NewTable()
	if err := back.Load(strings.NewReader(text), loc); err != nil {
		t.Fatal(err)
	}
	if save(t, back) != text {
		t.Errorf("Load(Save) changed the table:\n%s", save(t, back))
	}
	// Without mappings, locations are written as numbers.
	var raw bytes.Buffer
	if err := a.Save(&raw, nil); err != nil {
		t.Fatal(err)
	}
	back = strategy.NewTable()
	if err := back.Load(&raw, nil); err != nil || save(t, back) != save(t, a) {
		t.Errorf("numeric round trip: %v", err)
	}
}

func TestTableSaveMergesSharedText(t *testing.T) {
	tb := strategy.NewTable()
	tb.Mark(strategy.Sig{Task: 1, Loc: 5}, false)
	tb.Mark(strategy.Sig{Task: 1, Loc: 6}, true)
	var b bytes.Buffer
	if err := tb.Save(&b, func(uint64) string { return "same.go:1" }); err != nil {
		t.Fatal(err)
	}
	if want := "morpheus-ca-table 1\n0000000000000001 c same.go:1\n"; b.String() != want {
		t.Errorf("Save = %q, want %q", b.String(), want)
	}
	if err := tb.Save(&b, func(uint64) string { return "a\nb" }); err == nil {
		t.Error("Save accepted a location with a newline")
	}
}

func TestTableLoadErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "empty input",
		"morpheus-ca-table 2\n": "line 1",
		"morpheus-ca-table 1\n0000000000000001 s\n":                                "line 2: want",
		"morpheus-ca-table 1\n0000000000000001 x a.go:1\n":                         "line 2: state \"x\"",
		"morpheus-ca-table 1\n0000000000000001 s a.go:1\nzz00000000000001 s a:1\n": "line 3: task key",
		"morpheus-ca-table 1\n01 s a.go:1\n":                                       "line 2: want",
	} {
		err := strategy.NewTable().Load(strings.NewReader(in), loc)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%q) = %v, want an error containing %q", in, err, want)
		}
	}
	err := strategy.NewTable().Load(strings.NewReader("morpheus-ca-table 1\n0000000000000001 s a.go:1\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "not a number") {
		t.Errorf("Load without a mapping of a text location = %v", err)
	}
}

// spy is a strategy that records the enabled sets it is asked about and picks
// the last op.
type spy struct {
	asked [][]int32
	ended int
}

func (s *spy) Name() string     { return "spy" }
func (s *spy) Begin(uint64)     {}
func (s *spy) Choose(n int) int { return n - 1 }
func (s *spy) End(*trace.Trace) { s.ended++ }
func (s *spy) Next(enabled []strategy.Op) int {
	var ts []int32
	for _, op := range enabled {
		ts = append(ts, op.Task)
	}
	s.asked = append(s.asked, ts)
	return len(enabled) - 1
}

func TestCARunsPredictedIndependentOpsAtOnce(t *testing.T) {
	// Task 0's first op (location 0) and task 2's second op (location 1)
	// are known not to conflict; the rest is unknown.
	tb := strategy.NewTable()
	tb.Mark(strategy.Sig{Task: 0, Loc: 0}, false)
	tb.Mark(strategy.Sig{Task: 2, Loc: 1}, false)
	tb.Mark(strategy.Sig{Task: 1, Loc: 0}, true)
	inner := &spy{}
	ca := strategy.WithCA(inner, tb)
	if ca.Name() != "spy+ca" {
		t.Errorf("Name = %q", ca.Name())
	}
	p := prog{{w(1), w(1)}, {w(1)}, {w(1), w(2)}}
	order, chosen, _ := run(ca, p, 1)
	// Step 1: task 0's op 0 runs at once. Then the spy sees {0, 1, 2} and
	// picks 2; task 2's op 1 runs at once; the spy picks 1, then 0.
	if want := []int32{0, 2, 2, 1, 0}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if want := "[[0 1 2] [0 1] [0]]"; fmt.Sprint(inner.asked) != want {
		t.Errorf("inner asked about %v, want %s", inner.asked, want)
	}
	if inner.ended != 1 || len(chosen) != 0 {
		t.Errorf("inner ended %d times", inner.ended)
	}
	if ca.Divergence() == "" {
		t.Error("Divergence does not fall back for an inner strategy without one")
	}
	if _, ok := strategy.Strategy(ca).(strategy.Exhauster); ok {
		t.Error("CA is an Exhauster: a runtime would take pos+ca for a systematic search")
	}
	if _, ok := strategy.AsExhauster(ca); ok {
		t.Error("AsExhauster found an Exhauster in spy+ca")
	}
}

func TestCALearnsInEpochs(t *testing.T) {
	// Task 0 writes private resources; tasks 1 and 2 race on resource 1.
	p := prog{{w(10), w(11), w(12)}, {w(1)}, {w(1)}}
	ca := strategy.WithCA(strategy.NewPOS(), nil)
	if _, _, ok := run(ca, p, 1); !ok {
		t.Fatal("run failed")
	}
	if st := ca.Stats(); st.Ops != 5 || st.Conflicts != 2 || st.FalsePositives != 3 || st.FalseNegatives != 0 {
		t.Errorf("first iteration stats %+v, want 5 ops, 2 conflicts, 3 false positives", st)
	}
	if ca.Table().Len() != 0 {
		t.Fatal("End learned into the snapshot")
	}
	learned := ca.Learned()
	if n, again := strategy.ConflictTable(learned).Len(), strategy.ConflictTable(ca.Learned()).Len(); n != 5 || again != 0 {
		t.Fatalf("learned %d signatures, then %d; want 5, then none", n, again)
	}
	if st := strategy.ConflictStats(learned); st == nil || st.Ops != 5 {
		t.Errorf("learned stats %+v, want the iteration's", st)
	}
	ca.Learn(learned, true)
	// Now task 0's ops run first, every time but in probe iterations, and
	// the race is still sampled.
	orders := map[string]bool{}
	for seed := uint64(1); seed <= 50; seed++ {
		o, _, _ := run(ca, p, seed)
		if ca.Probing() {
			continue
		}
		if !slices.Equal(o[:3], []int32{0, 0, 0}) {
			t.Fatalf("seed %d: order %v, want task 0's independent ops first", seed, o)
		}
		orders[fmtOrder(o, nil)] = true
		if st := ca.Stats(); st.FalsePositives != 0 || st.FalseNegatives != 0 {
			t.Fatalf("stats with a complete table: %+v", st)
		}
	}
	if len(orders) != 2 {
		t.Errorf("orders %v, want both orders of the race", orders)
	}
	// Live learning goes straight into the table read.
	live := strategy.WithCA(strategy.NewRandom(), strategy.NewTable())
	live.SetLive(true)
	run(live, p, 1)
	if live.Table().Len() != 5 || strategy.ConflictTable(live.Learned()).Len() != 0 {
		t.Errorf("live CA: table %d, want 5 signatures and nothing pending", live.Table().Len())
	}
}

func TestCAPassesExhaustion(t *testing.T) {
	ca := strategy.WithCA(strategy.NewDFS(), nil)
	if _, ok := strategy.AsExhauster(ca); !ok {
		t.Fatal("AsExhauster does not find the DFS in dfs+ca")
	}
	p := prog{{w(1)}, {w(1)}}
	got := explore(t, ca, p, 10)
	if len(got) != 2 {
		t.Errorf("dfs+ca explored %v", got)
	}
}

func TestCAProbes(t *testing.T) {
	// Every op is known not to conflict: outside a probe CA decides alone.
	tb := strategy.NewTable()
	tb.Mark(strategy.Sig{Task: 0, Loc: 0}, false)
	tb.Mark(strategy.Sig{Task: 1, Loc: 0}, false)
	p := prog{{w(1)}, {w(1)}}
	probes := 0
	const seeds = 4000
	for seed := uint64(0); seed < seeds; seed++ {
		inner := &spy{}
		ca := strategy.WithCA(inner, tb)
		run(ca, p, seed)
		if ca.Probing() {
			probes++
			if want := "[[0 1] [0]]"; fmt.Sprint(inner.asked) != want {
				t.Fatalf("seed %d: a probe asked the inner strategy about %v, want %s", seed, inner.asked, want)
			}
		} else if len(inner.asked) != 0 {
			t.Fatalf("seed %d: no probe, yet the inner strategy was asked about %v", seed, inner.asked)
		}
		// An idle CA never probes: nobody would read what it learns.
		idle := strategy.WithCA(&spy{}, nil)
		k := idle.Prior()
		strategy.ConflictTable(k).Merge(tb)
		idle.Learn(k, false)
		run(idle, p, seed)
		if idle.Probing() {
			t.Fatalf("seed %d: an idle CA probed", seed)
		}
		// Nor does one around DFS: its replayed prefixes need the same decisions.
		dfs := strategy.WithCA(strategy.NewDFS(), tb)
		run(dfs, p, seed)
		if dfs.Probing() {
			t.Fatalf("seed %d: dfs+ca probed", seed)
		}
	}
	if lo, hi := seeds/strategy.ProbeEvery*8/10, seeds/strategy.ProbeEvery*12/10; probes < lo || probes > hi {
		t.Errorf("%d probes in %d seeds, want about 1 in %d", probes, seeds, strategy.ProbeEvery)
	}
}
