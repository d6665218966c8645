package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
)

func campaigns() []Campaign {
	return []Campaign{
		{Mode: "server", Counters: store.Counters{Runs: 10, Errors: 1, Constrained: 9, Satisfied: 4, TimedOut: 5, Skipped: 7}, Events: 5, Pairs: 6, LastNew: 8,
			Elapsed: 30 * time.Second, Session: store.Counters{Runs: 2, Satisfied: 1}, Done: true, OriginalPairs: 10, Bound: 8, ByRules: 10,
			Growth: []store.GrowthPoint{{Run: 2, Pairs: 3}, {Run: 8, Pairs: 6}},
			Rules:  []coverage.RuleCheck{{Rule: coverage.Rule{Before: "c:a#0", After: "w:b#0"}, Checked: 10, Broken: 1, Runs: []int{7}}},
			Errors: []ErrorRun{{Run: 7, Exit: 1, Constraints: []string{"w2:start#0 before w2:config-loaded#0"}, Stderr: "boom <x>\nwrong result", Trace: []string{"c:a#0", "w2:start#0"}}}},
		{Mode: "baseline", Counters: store.Counters{Runs: 10}, Events: 5, Pairs: 2, LastNew: 3, Growth: []store.GrowthPoint{{Run: 3, Pairs: 2}}},
	}
}

func TestWrite(t *testing.T) {
	var a, b bytes.Buffer
	if err := Write(&a, "./demo", campaigns()); err != nil {
		t.Fatal(err)
	}
	Write(&b, "./demo", campaigns())
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("report not deterministic")
	}
	page := a.String()
	for _, want := range []string{"<svg", "server", "baseline", "Error runs: server", "w2:start#0 before w2:config-loaded#0",
		"wrong result", "boom &lt;x&gt;", "c:a#0 &lt; w:b#0", "Observed unordered pairs over runs",
		`<td class="num">8</td>`, `<td class="num">7</td>`, `<td class="num">6.0</td>`, "server: the planner was done after 10 runs"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page, "Error runs: baseline") {
		t.Error("a section for a campaign without error runs")
	}
}
