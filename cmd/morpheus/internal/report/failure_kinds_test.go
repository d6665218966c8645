package report

import (
	"strings"
	"testing"
)

// TestDeadlockReport: a lock-order inversion (deadlock.trace: g1 holds
// mutex#4 and waits for mutex#5, g2 the other way round; main waits on the
// WaitGroup) is told by its wait-for cycle: every blocked op ringed on its
// task's lane, the cycle's arrows drawn, resources named as the console
// names them, and no ring on the step the deadlock was noticed after.
func TestDeadlockReport(t *testing.T) {
	tr := load(t, "deadlock.trace")
	out := render(t, failingData(tr))
	want := map[string]int{
		`<circle class="blocked-ring"`:          3, // main, g1, g2
		`class="arrow waitfor cycle"`:           2, // g1 → g2 and g2 → g1
		`<circle class="fail-ring"`:             0,
		`<tr class="bad"`:                       0,
		`<circle class="step blocked" data-ref`: 3,
	}
	got := count(out, mapKeys(want)...)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%d × %s, want %d", got[k], k, v)
		}
	}
	for _, s := range []string{
		"A lock-order inversion: g1 holds mutex#4 x_test.go:15 (since step 6) and waits for mutex#5 x_test.go:15, held by g2; g2 holds mutex#5 x_test.go:15 (since step 8) and waits for mutex#4 x_test.go:15, held by g1.",
		`<div class="value">3</div><div class="label">blocked tasks</div>`,
		">lock mutex#5<", ">wg-wait waitgroup#3<",
		"iteration seed 0x6ba50a730cd5a749",
		`<div class="value">0x6ba50a730cd5a749</div><div class="label">iteration seed</div>`,
		// The failure's message in the console's words: one "at" a phrase,
		// and who holds the lock since where.
		"g1: waits in lock at x_test.go:15 for mutex#5 (first used at x_test.go:15), held by g2 since x_test.go:15 (step 8)",
		"main: waits in wg-wait at x_test.go:24 for waitgroup#3 (first used at x_test.go:21)",
	} {
		if !strings.Contains(out, esc(s)) && !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	// The deadlock leads; the races (none here) come after the steps.
	dl, seq, steps, races := strings.Index(out, `id="deadlock"`), strings.Index(out, `id="sequence"`), strings.Index(out, `id="steps"`), strings.Index(out, `id="races"`)
	if dl < 0 || !(dl < seq && seq < steps && steps < races) {
		t.Errorf("sections in order deadlock %d, sequence %d, steps %d, races %d; want that order", dl, seq, steps, races)
	}
	if strings.Contains(out, "blocked in lock on") || strings.Contains(out, "at x_test.go:15 at x_test.go:15") {
		t.Error("the failure's message is shown in the trace's words (blocked in ... at ... at ...)")
	}
	if strings.Contains(out, "resource 4") || strings.Contains(out, "resource#") {
		t.Error("a resource is shown as a bare number")
	}
}

// TestWaitsOfMessages: the waits are read from the console's lines, task
// names with ": " in them included; lines of other shapes are skipped.
func TestWaitsOfMessages(t *testing.T) {
	tr := load(t, "deadlock.trace")
	tr.Tasks[1].Name = "worker: a"
	tr.Header.Failure.Message = "no task can run and no timer is pending; blocked tasks:\n" +
		"  worker: a: blocked in lock on mutex#5 created at bank.go:3 at bank.go:30\n" +
		"  g2: waits in receive at srv.go:9 (mailbox empty)\n" +
		"  nobody: blocked in lock on mutex#4 first used at x.go:1 at x.go:2\n" +
		"  main: something else entirely"
	ws := waitsOf(tr)
	if len(ws) != 2 {
		t.Fatalf("%d waits, want 2: %+v", len(ws), ws)
	}
	if w := ws[0]; w.task != 1 || w.op != "lock" || w.object != "mutex#5" || w.res != 5 || w.site != "bank.go:3" || w.loc != "bank.go:30" || len(w.holder) != 1 || w.holder[0] != 2 {
		t.Errorf("first wait %+v", w)
	}
	if w := ws[1]; w.task != 2 || w.op != "receive" || w.res != 0 || w.loc != "srv.go:9" || w.extra != "mailbox empty" {
		t.Errorf("second wait %+v", w)
	}
	if names := resourceNames(tr, ws); names[5] != "mutex#5 bank.go:3" || names[3] != "waitgroup#3 x_test.go:21" {
		t.Errorf("names %v", names)
	}
	if c := waitCycle(ws); c != nil {
		t.Errorf("cycle %v among waits that form none", c)
	}
	tr.Header.Failure.Kind = "assertion"
	if ws := waitsOf(tr); ws != nil {
		t.Errorf("waits of an assertion failure: %+v", ws)
	}
}

// TestLivenessReport: a crash followed by 600 rounds of retries
// (liveness.trace) leads with its key events, folds the retries, and draws
// the crash on the crashed server's lane.
func TestLivenessReport(t *testing.T) {
	tr := load(t, "liveness.trace")
	out := render(t, failingData(tr))
	for _, s := range []string{
		`id="key-events"`,
		"node 1 crashes, killing server@n2",
		"monitor pong is hot from here on",
		"last progress (exit)",
		`<div class="value">step 5 (client@n1)</div><div class="label">hot since</div>`,
		"598 more cycles",
		">crashed<",
	} {
		if !strings.Contains(out, esc(s)) && !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if n := strings.Count(out, `<path class="crash"`); n != 2 {
		t.Errorf("%d crash marks, want 2 (the chaos task's and the server's lane)", n)
	}
	// The crash is drawn, not scrolled out by the retries.
	if !strings.Contains(out, `<circle class="step k-crash`) {
		t.Error("the crash step is not drawn")
	}
	if n := strings.Count(out, `<circle class="step`); n > 40 {
		t.Errorf("%d steps drawn; the retries are not folded", n)
	}
	for _, s := range []string{`<div class="label">task</div>`, `<div class="label">location</div>`} {
		if strings.Contains(out, s) {
			t.Errorf("report shows an empty %s", s)
		}
	}
}

// TestCutBetweenWords: labels are cut between words, never inside one.
func TestCutBetweenWords(t *testing.T) {
	for in, want := range map[string]string{
		"send dropped ✗ uncontrolled-blocking": "send dropped ✗ …",
		"short":                                "short",
		"exactly twenty-four runes!":           "exactly twenty-four …",
		"averyveryverylongsingleword-xyz":      "averyveryverylongsingleword-xyz",
		"averyveryverylongsingleword-xyz tail": "averyveryverylongsingleword-xyz …",
	} {
		got := cut(in)
		if got != want {
			t.Errorf("cut(%q) = %q, want %q", in, got, want)
		}
		if first, _, _ := strings.Cut(in, " "); len([]rune(got)) > max(maxLabel, len([]rune(first))+2) {
			t.Errorf("cut(%q) = %q is longer than %d runes", in, got, maxLabel)
		}
	}
}
