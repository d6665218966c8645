package store

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
)

func sampleDelta() *Delta {
	return &Delta{
		Seq:       2,
		Counters:  Counters{Runs: 10, Errors: 2, Hung: 1, Constrained: 9, Satisfied: 5, TimedOut: 3, NotReached: 1, Skipped: 6, Dropped: 1, Protocol: 4},
		Cursor:    coverage.Planner{Round: 1, D: 2, I: 3},
		EventBase: 3,
		Events:    []string{"c:start#0", "w1:run{n=2}#1"},
		Original:  []uint32{0, 1, 2, 3, 4},
		Pairs:     []coverage.Pair{{A: 0, B: 1}, {A: 2, B: 4}},
		Growth:    []GrowthPoint{{Run: 4, Pairs: 1}, {Run: 9, Pairs: 2}},
		Rules:     []RuleCount{{Checked: 10, Broken: 1}},
		Cex:       []Counterexample{{Rule: 0, Run: 7}},
		Runs: []Run{
			{Run: 7, Exit: 3, Millis: 12, Constraints: []coverage.Constraint{{First: 4, Then: 2}}, TimedOut: 1, Trace: []uint32{0, 4, 2}, Stderr: "panic: \"x\"\n\tline 2\x00"},
			{Run: 8, Exit: -1, Hung: true},
		},
		Holds: []coverage.Starvation{{Run: 6, Held: 2, Starved: []uint32{3, 4}}},
	}
}

func TestDeltaRoundTrip(t *testing.T) {
	d := sampleDelta()
	var b bytes.Buffer
	if err := d.Encode(&b); err != nil {
		t.Fatal(err)
	}
	got, err := DecodeDelta(&b, "d")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, d)
	}
}

func TestDeltaErrors(t *testing.T) {
	var b bytes.Buffer
	sampleDelta().Encode(&b)
	good := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	cases := []struct {
		edit func([]string) []string
		want string
	}{
		{func(l []string) []string { return l[:len(l)-1] }, "cut short, expected end"},
		{func(l []string) []string { l[0] = "x"; return l }, "d: line 1: expected \"morpheus-fuzz-delta 1\""},
		{func(l []string) []string { l[1] = "seq x"; return l }, "d: line 2: seq N: \"x\" is not a number"},
		{func(l []string) []string { l[2] = "counters runs=1 bogus=2"; return l }, "line 3: counters: \"bogus=2\": expected one NAME=N"},
		{func(l []string) []string { l[5] = "event 9 x"; return l }, "line 6: event id 9, expected 4"},
		{func(l []string) []string { l[7] = "pair 1"; return l }, "line 8: expected pair A B"},
		{func(l []string) []string { return append(l, "more") }, "text after end"},
		{func(l []string) []string { l[len(l)-2] = "stderr 9 \"x\""; return l }, "stderr of run 9 does not follow its run line"},
		{func(l []string) []string { l[len(l)-2] = "frob"; return l }, "unknown record \"frob\""},
		{func(l []string) []string { l[len(l)-2] = "hold 6 2 -"; return l }, "expected hold RUN HELD STARVED"},
		{func(l []string) []string { l[len(l)-2] = "hold 6 2"; return l }, "expected hold RUN HELD STARVED"},
		{func(l []string) []string { l[len(l)-2] = "hold 6 x 3"; return l }, "\"x\" is not a number"},
		{func(l []string) []string { l[len(l)-2] = "hold 6 2 3,y"; return l }, "hold: starved: \"y\" is not a number"},
	}
	for i, c := range cases {
		lines := c.edit(append([]string(nil), good...))
		_, err := DecodeDelta(strings.NewReader(strings.Join(lines, "\n")+"\n"), "d")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: error %v, want %q", i, err, c.want)
		}
	}
	if _, err := DecodeDelta(strings.NewReader(""), "d"); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty delta: %v", err)
	}
}

func sampleMeta() *Meta {
	return &Meta{Mode: "server", Constraints: 1, Timeout: 50 * time.Millisecond, Limit: 10 * time.Second, Seed: 7, Window: 0, Rounds: 3, SkipInfeasible: true,
		Rules:   []coverage.Rule{{Before: "c:a#0", After: "w:b#0"}},
		Command: []string{"./demo", "two words", "-x=\"q\""}}
}

func TestMetaRoundTripAndErrors(t *testing.T) {
	var b bytes.Buffer
	sampleMeta().Encode(&b)
	got, err := DecodeMeta(bytes.NewReader(b.Bytes()), "m")
	if err != nil || !reflect.DeepEqual(got, sampleMeta()) {
		t.Fatalf("round trip %+v, %v", got, err)
	}
	for in, want := range map[string]string{
		"x\n":                        "m: line 1: expected",
		metaHeader + "\nmode fast\n": "line 2: mode \"fast\": expected server, baseline or random",
		metaHeader + "\nmode server\ntimeout 3\n": "line 3: timeout",
		metaHeader + "\nmode server\n":            "incomplete campaign file",
		metaHeader + "\nrule a<b\n":               "line 2: rule",
		metaHeader + "\nskip-infeasible yes\n":    "line 2: skip-infeasible: expected 0 or 1",
	} {
		if _, err := DecodeMeta(strings.NewReader(in), "m"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestOlderFiles: a campaign file and a delta written before the
// skip-infeasible line and the skipped counter existed still read, without
// them.
func TestOlderFiles(t *testing.T) {
	m, err := DecodeMeta(strings.NewReader(metaHeader+"\nmode server\nrounds 3\narg \"./demo\"\n"), "m")
	if err != nil || m.SkipInfeasible || m.Rounds != 3 {
		t.Fatalf("meta %+v, %v", m, err)
	}
	d, err := DecodeDelta(strings.NewReader(deltaHeader+"\nseq 1\ncounters runs=2 constrained=1 timedout=1\nend\n"), "d")
	if err != nil || d.Counters != (Counters{Runs: 2, Constrained: 1, TimedOut: 1}) || d.Holds != nil {
		t.Fatalf("delta %+v, %v", d, err)
	}
}

func TestSaveOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c")
	d, err := Create(path, sampleMeta())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path, sampleMeta()); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("second Create: %v", err)
	}
	d1, d2 := sampleDelta(), sampleDelta()
	d2.Original, d2.Events, d2.EventBase = nil, nil, 0
	for _, x := range []*Delta{d1, d2} {
		if err := d.Save(x); err != nil {
			t.Fatal(err)
		}
	}
	// An interrupted third save: the delta is there, HEAD is not moved.
	os.WriteFile(filepath.Join(path, DeltaName(3)), []byte("garbage"), 0o644)
	os.WriteFile(filepath.Join(path, HeadFile+".tmp"), []byte("3"), 0o644)
	var seqs []int
	d, m, err := Open(path, func(x *Delta) error { seqs = append(seqs, x.Seq); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seqs, []int{1, 2}) || d.Seq() != 2 || !reflect.DeepEqual(m, sampleMeta()) {
		t.Fatalf("seqs %v seq %d meta %+v", seqs, d.Seq(), m)
	}
	// The next save overwrites the leftover.
	if err := d.Save(sampleDelta()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(path, func(*Delta) error { return nil }); err != nil {
		t.Fatal(err)
	}
	// A corrupt committed delta is reported with its file name.
	os.WriteFile(filepath.Join(path, DeltaName(2)), []byte("garbage"), 0o644)
	if _, _, err := Open(path, func(*Delta) error { return nil }); err == nil || !strings.Contains(err.Error(), DeltaName(2)) {
		t.Fatalf("corrupt delta: %v", err)
	}
	if _, _, err := Open(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "no campaign to resume") {
		t.Fatalf("empty dir: %v", err)
	}
}
