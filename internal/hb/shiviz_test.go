package hb_test

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// shivizRE parses a ShiViz log the way ShiViz does, with the log's own
// regular expression.
var shivizRE = regexp.MustCompile(hb.ShiVizRegexp)

// checkShiViz checks the ShiViz log of tr against the trace: the header
// lines, one event per step of a task with that task's host, clocks equal to
// Clocks', each host's own entry counting 1, 2, 3, and clocks naming only
// hosts that exist, at counts they reach. It returns the events' host names
// and texts.
func checkShiViz(t *testing.T, tr *trace.Trace, out string) (hosts, texts []string) {
	t.Helper()
	head, body, ok := strings.Cut(out, "\n\n")
	if !ok || head != hb.ShiVizRegexp {
		t.Fatalf("log does not start with the regexp and an empty delimiter line:\n%.200s", out)
	}
	if strings.Count(body, "\n") != 2*len(shivizRE.FindAllStringIndex(body, -1)) {
		t.Fatalf("log has lines the regexp does not parse:\n%s", body)
	}
	var steps []int
	var want []map[string]uint32
	hb.Clocks(tr, func(i int, vc hb.VC) {
		steps = append(steps, i)
		want = append(want, map[string]uint32{})
		for task, n := range vc {
			if n > 0 {
				want[len(want)-1][string(rune(task))] = n // by task, renamed below
			}
		}
	})
	matches := shivizRE.FindAllStringSubmatch(body, -1)
	if len(matches) != len(steps) {
		t.Fatalf("%d events, want %d (the steps of tasks)", len(matches), len(steps))
	}
	hostOf := map[int32]string{} // task -> host
	taskOf := map[string]int32{}
	own := map[string]uint32{}
	for k, m := range matches {
		host, clock, text := m[1], m[2], m[3]
		task := tr.Events[steps[k]].Task
		if h, ok := hostOf[task]; ok && h != host {
			t.Fatalf("event %d: task %d is host %q, earlier %q", k, task, host, h)
		}
		if other, ok := taskOf[host]; ok && other != task {
			t.Fatalf("event %d: host %q is tasks %d and %d", k, host, task, other)
		}
		hostOf[task], taskOf[host] = host, task
		var vc map[string]uint32
		if err := json.Unmarshal([]byte(clock), &vc); err != nil {
			t.Fatalf("event %d: clock %s: %v", k, clock, err)
		}
		own[host]++
		if vc[host] != own[host] {
			t.Fatalf("event %d: host %s's own entry is %d, want %d", k, host, vc[host], own[host])
		}
		if len(vc) != len(want[k]) {
			t.Fatalf("event %d: clock %v has %d entries, want %d", k, vc, len(vc), len(want[k]))
		}
		hosts, texts = append(hosts, host), append(texts, text)
		for h, n := range vc {
			if n == 0 {
				t.Fatalf("event %d: zero entry for %s", k, h)
			}
		}
	}
	// Entries by host equal Clocks' entries by task, and name hosts at counts
	// their own events reach.
	for k, m := range matches {
		var vc map[string]uint32
		json.Unmarshal([]byte(m[2]), &vc)
		for h, n := range vc {
			task, ok := taskOf[h]
			if !ok {
				t.Fatalf("event %d: clock names host %q, which has no event", k, h)
			}
			if want[k][string(rune(task))] != n {
				t.Fatalf("event %d: entry %s=%d, want %d", k, h, n, want[k][string(rune(task))])
			}
			if n > own[h] {
				t.Fatalf("event %d: entry %s=%d beyond its %d events", k, h, n, own[h])
			}
		}
	}
	return hosts, texts
}

func shiviz(t *testing.T, tr *trace.Trace) string {
	t.Helper()
	var b bytes.Buffer
	if err := hb.WriteShiViz(&b, tr); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestShiVizStorage(t *testing.T) {
	data, err := os.ReadFile(hb.Recorded + "storage.trace")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trace.Decode(bytes.NewReader(data), "storage.trace")
	if err != nil {
		t.Fatal(err)
	}
	out := shiviz(t, tr)
	if again := shiviz(t, tr); again != out {
		t.Fatal("two exports of the same trace differ")
	}
	hosts, texts := checkShiViz(t, tr, out)
	if len(hosts) != 15 {
		t.Fatalf("%d events, want 15", len(hosts))
	}
	for _, line := range []string{
		`server@n1 {"main":5,"server@n1":2,"client":2}` + "\nstep 11 at 0.000s: recv ← client main.ClientReq{Data:3} (server.go:20)\n",
		"step 9 at 0.000s: send → server@n2 dropped main.ClientReq{Data:3} (client.go:18) ✗ FAILED: assertion: replica count 3 but only 2 distinct\n",
		`timer#1 {"timer#1":1}` + "\nstep 14 at 2.250s: timer → client main.ClientReq{Data:3}\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("log lacks %q:\n%s", line, out)
		}
	}
	if strings.Count(out, "FAILED") != 1 || !strings.Contains(texts[0], "step 1 at 0.000s: start") {
		t.Errorf("unexpected events: %q", texts)
	}
}

func TestShiVizHostNames(t *testing.T) {
	tr := &trace.Trace{Tasks: []trace.Task{
		{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "timer"}, {ID: 2, Name: "timer"},
		{ID: 3, Name: "a b\tc"}, {ID: 4, Name: "timer#1"}, {ID: 5}}}
	for id := range int32(6) {
		tr.Events = append(tr.Events, trace.Event{Task: id, Obj: -1, Kind: trace.KindYield})
	}
	tr.Events = append(tr.Events, trace.Event{Task: -1, Obj: -1, Kind: trace.KindHeal}) // the runtime's: no clock
	hosts, _ := checkShiViz(t, tr, shiviz(t, tr))
	want := "[main timer#1 timer#2 a_b_c timer#1#4 t5]"
	if got := "[" + strings.Join(hosts, " ") + "]"; got != want {
		t.Errorf("hosts %s, want %s", got, want)
	}
}

// FuzzShiViz checks the ShiViz log of every trace Decode accepts against the
// trace (checkShiViz). The seed corpus is in testdata/fuzz/FuzzShiViz.
func FuzzShiViz(f *testing.F) {
	if data, err := os.ReadFile(hb.Recorded + "storage.trace"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := trace.Decode(bytes.NewReader(data), "fuzz.trace")
		if err != nil {
			return
		}
		checkShiViz(t, tr, shiviz(t, tr))
	})
}
