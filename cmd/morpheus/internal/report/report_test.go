package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

func render(t *testing.T, d *Data) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteIsDeterministic(t *testing.T) {
	for _, name := range []string{"bugA.trace", "storage.trace"} {
		a := render(t, failingData(load(t, name)))
		b := render(t, failingData(load(t, name)))
		if a != b {
			t.Errorf("%s: two reports of the same data differ", name)
		}
	}
}

func TestWriteNil(t *testing.T) {
	if err := Write(new(bytes.Buffer), nil); err == nil {
		t.Fatal("Write(nil) succeeded")
	}
}

// count returns how often each marker occurs in out.
func count(out string, markers ...string) map[string]int {
	m := map[string]int{}
	for _, s := range markers {
		m[s] = strings.Count(out, s)
	}
	return m
}

func TestDiagramOfStorageTrace(t *testing.T) {
	out := render(t, failingData(load(t, "storage.trace")))
	// storage.trace: 5 tasks; main spawns three; client's request reaches
	// server@n1, its second is dropped; server@n2 times out; main crashes n2;
	// client fails at its dropped send (step 9, its last step before 14).
	want := map[string]int{
		`<g class="lane"`:           5,
		`class="arrow msg"`:         1,
		`class="arrow spawn"`:       3,
		`class="arrow chan"`:        0,
		`<path class="crash"`:       1,
		`<path class="timeout"`:     1,
		`<path class="dropped"`:     1,
		`<circle class="fail-ring"`: 1,
		`<circle class="step`:       15,
	}
	got := count(out, mapKeys(want)...)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%d × %s, want %d", got[k], k, v)
		}
	}
	for _, s := range []string{
		`data-ref="s9"`,                  // the failing step is linked to its table row
		`<tr class="bad" data-ref="s9">`, // and its row is marked
		"send dropped ✗ assertion",
		"crash node 2",
		"Shrunk from 55 to 15 steps.",
		"replica count 3 but only 2 distinct",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if strings.Contains(out, "time budget") {
		t.Error("report says the time budget stopped shrinking; it did not")
	}
	d := failingData(load(t, "storage.trace"))
	d.Failure.ShrinkTimedOut = true
	if out := render(t, d); !strings.Contains(out, "Shrinking was stopped by its time budget") {
		t.Error("report does not say the time budget stopped shrinking")
	}
}

func mapKeys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// TestDiagramOfRealTrace checks the diagram of a failure the demo found
// against facts counted from the trace itself: a lane per task that ran, an
// arrow per message received, a row per step.
func TestDiagramOfRealTrace(t *testing.T) {
	tr := load(t, "bugA.trace")
	out := render(t, failingData(tr))
	tasks := map[int32]bool{}
	recvs, steps := 0, 0
	for _, e := range tr.Events {
		if !e.IsStep() {
			continue
		}
		steps++
		tasks[e.Task] = true
		if e.Kind == trace.KindRecv && e.Flag&trace.FlagTimeout == 0 {
			recvs++
		}
	}
	got := count(out, `<g class="lane"`, `class="arrow msg"`, `<circle class="step`, `<tr data-ref="s`, `<tr class="hl" data-ref="s`, `<tr class="bad" data-ref="s`)
	if got[`<g class="lane"`] != len(tasks) {
		t.Errorf("%d lanes, want %d", got[`<g class="lane"`], len(tasks))
	}
	if got[`class="arrow msg"`] != recvs {
		t.Errorf("%d message arrows, want %d (one per receive)", got[`class="arrow msg"`], recvs)
	}
	if got[`<circle class="step`] != steps {
		t.Errorf("%d step marks, want %d", got[`<circle class="step`], steps)
	}
	if rows := got[`<tr data-ref="s`] + got[`<tr class="hl" data-ref="s`] + got[`<tr class="bad" data-ref="s`]; rows != steps {
		t.Errorf("%d step rows, want %d", rows, steps)
	}
	if got[`<tr class="bad" data-ref="s`] != 1 {
		t.Errorf("%d failing rows, want 1", got[`<tr class="bad" data-ref="s`])
	}
	if !strings.Contains(out, "monitor replicas: server acked data 2 held by only 2 distinct replicas") {
		t.Error("report lacks the failure message")
	}
}

func TestPassingRun(t *testing.T) {
	out := render(t, &Data{Test: "TestOK", Strategy: "pos+ca", Seed: 7, Iterations: 1000, Steps: 5e6, Elapsed: 2e9,
		Coverage: []CoveragePoint{{100, 40}, {1000, 90}}})
	for _, s := range []string{
		"<title>morpheus: TestOK</title>",
		"base seed 0x7: passed",
		`<div class="value">0x7</div><div class="label">base seed</div>`,
		`<div class="stat good"><div class="value">0</div><div class="label">failures</div>`,
		`<div class="value">2.5M</div><div class="label">ops/s</div>`,
		`<div class="value">90</div><div class="label">partial orders</div>`,
		"90 distinct partial orders in 1000 iterations.",
		"<polyline",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	for _, s := range []string{"Sequence diagram", `id="failure"`} {
		if strings.Contains(out, s) {
			t.Errorf("passing report has %q", s)
		}
	}
}

func TestNoCoverage(t *testing.T) {
	out := render(t, &Data{Title: "custom", Test: "T", Iterations: 5})
	for _, s := range []string{"<title>custom</title>", "No coverage samples were recorded.", `<div class="value">-</div><div class="label">ops/s</div>`} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
}

func TestFailureWithoutTrace(t *testing.T) {
	out := render(t, &Data{Test: "T", Failures: 1, Failure: &FailureView{Kind: "panic", Message: "boom <x>"}})
	if !strings.Contains(out, "boom &lt;x&gt;") || strings.Contains(out, "Sequence diagram") {
		t.Error("a failure without a trace is not shown as its message alone")
	}
}

// TestLongTrace: a trace longer than the diagram's bound is drawn from its
// end, and says so.
func TestLongTrace(t *testing.T) {
	n := maxDiagramSteps + 50
	tr := &trace.Trace{
		Header: trace.Header{Test: "TestLong", Failure: &trace.Failure{Kind: "assertion", Task: 1, Step: n}},
		Tasks:  []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Parent: 0, Name: "w"}},
	}
	for i := range n { // choices of different values: nothing repeats
		tr.Events = append(tr.Events, trace.Event{Task: int32(i % 2), Obj: -1, Kind: trace.KindChoose, Val: int64(i)})
	}
	out := render(t, failingData(tr))
	if got := strings.Count(out, `<circle class="step`); got != maxDiagramSteps {
		t.Errorf("%d steps drawn, want %d", got, maxDiagramSteps)
	}
	if want := fmt.Sprintf("%d of %d steps drawn", maxDiagramSteps, n); !strings.Contains(out, want) {
		t.Errorf("report lacks %q", want)
	}
	if !strings.Contains(out, fmt.Sprintf(`data-ref="s%d"`, n)) || strings.Contains(out, `data-ref="s1"`) {
		t.Error("the diagram does not show the trace's end")
	}
}

// racyTrace: tasks 1 and 2 both store to variable 1, then task 2 sends to
// task 1, which fails after receiving; tasks 3 and 4 race on variable 2,
// which the failure does not depend on.
func racyTrace(fail bool) *trace.Trace {
	tr := &trace.Trace{Tasks: []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "a"}, {ID: 2, Name: "b"}, {ID: 3, Name: "c"}, {ID: 4, Name: "d"}}}
	ev := func(task int32, k trace.Kind, obj int32, res uint32, val int64) {
		tr.Events = append(tr.Events, trace.Event{Task: task, Obj: obj, Res: res, Kind: k, Val: val})
	}
	ev(0, trace.KindStart, -1, 0, 0)
	for c := int32(1); c <= 4; c++ {
		ev(0, trace.KindSpawn, c, 0, 0)
	}
	ev(1, trace.KindStore, -1, 1, 0) // step 6
	ev(2, trace.KindStore, -1, 1, 0) // step 7: races with step 6
	ev(3, trace.KindStore, -1, 2, 0) // step 8
	ev(4, trace.KindStore, -1, 2, 0) // step 9: races with step 8
	ev(2, trace.KindSend, 1, 0, 0)   // step 10
	ev(1, trace.KindRecv, 2, 0, 0)   // step 11: the failure
	if fail {
		tr.Header.Failure = &trace.Failure{Kind: "assertion", Task: 1, Step: 11}
	}
	return tr
}

func TestDecidingRaces(t *testing.T) {
	for _, c := range []struct {
		fail bool
		want []race
	}{
		{true, []race{{5, 6}}},          // only the race the failure depends on
		{false, []race{{5, 6}, {7, 8}}}, // no failure step: every race
	} {
		tr := racyTrace(c.fail)
		races, total := decidingRaces(tr, failureEvent(tr, stepsOf(tr)))
		if fmt.Sprint(races) != fmt.Sprint(c.want) || total != len(c.want) {
			t.Errorf("fail=%v: races %v (total %d), want %v", c.fail, races, total, c.want)
		}
	}
	out := render(t, failingData(racyTrace(true)))
	for _, s := range []string{`class="race-link" data-ref="r1"`, `<tr data-ref="r1">`, `<circle class="step k-store racy" data-ref="s6"`, `<circle class="step k-store racy" data-ref="s7"`, "1 found."} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if strings.Contains(out, `data-ref="r2"`) || strings.Contains(out, `racy" data-ref="s8"`) {
		t.Error("a race the failure does not depend on is highlighted")
	}
}

// TestTraceAlone: a report of a passing trace, without figures of a run,
// shows the trace and no empty figures.
func TestTraceAlone(t *testing.T) {
	tr := load(t, "storage.trace")
	tr.Header.Failure = nil
	out := render(t, &Data{Test: tr.Header.Test, Trace: tr})
	for _, s := range []string{"made from a trace alone", `id="sequence"`, "passed", `<g class="lane"`} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	for _, s := range []string{`id="coverage"`, `id="failure"`, `<circle class="fail-ring"`, "ops/s"} {
		if strings.Contains(out, s) {
			t.Errorf("report has %q", s)
		}
	}
}

// TestChannelArrows: a channel value is an arrow from its send to its
// receive, or, when the receive took it from a sender blocked on the channel
// (no send step of that value before it), from where the sender waits.
func TestChannelArrows(t *testing.T) {
	tr := &trace.Trace{Tasks: []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "g1"}, {ID: 2, Name: "g2"}}}
	ev := func(task int32, k trace.Kind, obj int32, res uint32, val int64) {
		tr.Events = append(tr.Events, trace.Event{Task: task, Obj: obj, Res: res, Kind: k, Val: val})
	}
	ev(0, trace.KindStart, -1, 0, 0)
	ev(0, trace.KindSpawn, 1, 0, 0)
	ev(0, trace.KindSpawn, 2, 0, 0)
	ev(1, trace.KindStart, -1, 0, 0)
	ev(1, trace.KindChanSend, -1, 3, 7) // buffered: the send is a step of its own
	ev(2, trace.KindStart, -1, 0, 0)    // g2 then blocks sending value 9
	ev(0, trace.KindChanRecv, 1, 3, 7)  // value 7 from g1's send
	ev(0, trace.KindChanRecv, 2, 4, 9)  // value 9 from the blocked g2
	ev(0, trace.KindChanRecv, -1, 3, trace.ValClosed)
	a := arrowsOf(tr, map[int]int{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8})
	var chans []arrow
	for _, x := range a {
		if x.class == "chan" {
			chans = append(chans, x)
		}
	}
	if len(chans) != 2 || chans[0].from != 4 || chans[0].to != 6 || chans[1].from != 5 || chans[1].to != 7 {
		t.Errorf("channel arrows %+v, want 4→6 and 5→7", chans)
	}
}

// A race repeated at the same two lines (in every cycle of a loop) is one
// row of the race table: the text says how many races in how many rows, the
// rows are numbered 1 to n, and "times" is explained.
func TestRaceRows(t *testing.T) {
	tr := &trace.Trace{Tasks: []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "a"}, {ID: 2, Name: "b"}, {ID: 3, Name: "c"}, {ID: 4, Name: "d"}}}
	ev := func(task int32, k trace.Kind, obj int32, res uint32) {
		tr.Events = append(tr.Events, trace.Event{Task: task, Obj: obj, Res: res, Kind: k})
	}
	ev(0, trace.KindStart, -1, 0)
	for c := int32(1); c <= 4; c++ {
		ev(0, trace.KindSpawn, c, 0)
	}
	for range 3 {
		ev(1, trace.KindStore, -1, 1)
		ev(2, trace.KindStore, -1, 1)
	}
	ev(3, trace.KindStore, -1, 2)
	ev(4, trace.KindStore, -1, 2)
	tr.Header.Failure = &trace.Failure{Kind: "liveness", Task: -1}
	races, total := decidingRaces(tr, failureEvent(tr, stepsOf(tr)))
	out := render(t, failingData(tr))
	rows := regexp.MustCompile(`<tr data-ref="r\d+"><td[^>]*>(\d+)</td>`).FindAllStringSubmatch(out, -1)
	var nums []string
	for _, r := range rows {
		nums = append(nums, r[1])
	}
	if len(nums) == 0 || len(nums) >= len(races) {
		t.Fatalf("%d races (%d in all) in rows %v: want them grouped", len(races), total, nums)
	}
	for i, n := range nums {
		if n != strconv.Itoa(i+1) {
			t.Fatalf("rows numbered %v, want 1 to %d", nums, len(nums))
		}
	}
	if want := fmt.Sprintf("%d found in %d rows, one per pair of code locations", total, len(nums)); !strings.Contains(out, want) || !strings.Contains(out, "&#34;times&#34; says how many") && !strings.Contains(out, "&quot;times&quot; says how many") {
		t.Errorf("report lacks %q or the explanation of times", want)
	}
}
