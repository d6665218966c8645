package driver

import (
	"strings"
	"testing"
	"time"
)

func TestTookParsesTestingDuration(t *testing.T) {
	for _, c := range []struct {
		line string
		want time.Duration
		ok   bool
	}{
		{"--- PASS: TestX (1.25s)", 1250 * time.Millisecond, true},
		{"--- FAIL: TestX (0.00s)", 0, true},
		{"--- SKIP: TestX (360.50s)", 360500 * time.Millisecond, true},
		{"--- PASS: TestX", 0, false},
		{"--- PASS: TestX (soon)", 0, false},
	} {
		got, ok := took(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("took(%q) = %v, %v; want %v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// The index of a process's output keeps what testing gave each top-level
// test, and procPhases tells it from the time the test explored.
func TestProcPhasesSaysWhereTestsSpentTime(t *testing.T) {
	o := &procOutput{ix: newOutputIndex()}
	o.ix.write([]byte(frameByte + "=== RUN   TestSlow\n" + frameByte + "=== RUN   TestSlow/sub\n" +
		frameByte + "    --- PASS: TestSlow/sub (0.50s)\n" + frameByte + "--- FAIL: TestSlow (12.00s)\n" +
		frameByte + "=== RUN   TestQuick\n" + frameByte + "--- PASS: TestQuick (0.25s)\n"))
	st := &procStat{wall: 13 * time.Second, cpu: 4 * time.Second, explored: 1500 * time.Millisecond,
		explore: map[string]time.Duration{"TestSlow": time.Second, "TestQuick": 500 * time.Millisecond}}
	out := procPhases([]*procStat{st}, []*procOutput{o})
	for _, want := range []string{
		"process 0: 13.000s wall, 4.000s cpu; its tests 12.250s (exploring 1.500s), outside tests 0.750s",
		"12.000s (exploring    1.000s)  TestSlow\n",
		"0.250s (exploring    0.500s)  TestQuick\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("procPhases wrote\n%s\nwant a line with %q", out, want)
		}
	}
	if strings.Index(out, "TestSlow") > strings.Index(out, "TestQuick") {
		t.Errorf("the longest test is not first:\n%s", out)
	}
}
