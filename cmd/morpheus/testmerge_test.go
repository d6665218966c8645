package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// shardFile is a small result file of shard i of n: TestA passed with 10
// schedules, TestB failed in schedule fail (-1: passed), unless end is false
// the run finished.
func shardFile(shard, seed string, fail int, end bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"kind":"run","version":1,"shard":%q,"run":{"patterns":["./..."],"schedules":0,"seed":%s}}`+"\n", shard, seed)
	b.WriteString(`{"kind":"test","test":{"package":"example.com/m","test":"TestA","schedules":10,"steps":100,"stopped":"budget-schedules"}}` + "\n")
	if fail >= 0 {
		fmt.Fprintf(&b, `{"kind":"corpus","corpus":{"package":"example.com/m","test":"TestB","dir":".","path":"testdata/morpheus/TestB/s%d","trace":"trace of %d"}}`+"\n", fail, fail)
		fmt.Fprintf(&b, `{"kind":"test","test":{"package":"example.com/m","test":"TestB","schedules":%d,"steps":7,"kind":"deadlock","failure":"report %d","schedule":%d,"stopped":"failure"}}`+"\n", fail+1, fail, fail)
	} else {
		b.WriteString(`{"kind":"test","test":{"package":"example.com/m","test":"TestB","schedules":5,"steps":50,"stopped":"budget-time"}}` + "\n")
	}
	b.WriteString(`{"kind":"package","package":{"path":"example.com/m","build_ns":1,"elapsed_ns":2}}` + "\n")
	if end {
		b.WriteString(`{"kind":"end"}` + "\n")
	}
	return b.String()
}

func readAll(t *testing.T, texts map[string]string, names ...string) []*resultFile {
	t.Helper()
	var out []*resultFile
	for _, n := range names {
		f, err := readResults(strings.NewReader(texts[n]), n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

func TestMergeResultFiles(t *testing.T) {
	files := map[string]string{
		"s0": shardFile("0/3", "0", 7, true),
		"s1": shardFile("1/3", "0", -1, true),
		"s2": shardFile("2/3", "0", 5, true),
		"x1": shardFile("1/3", "1", -1, true), // another seed
		"u1": shardFile("1/3", "0", -1, false),
		"w":  shardFile("", "0", -1, true),
		"h4": shardFile("1/4", "0", -1, true),
	}
	m, err := mergeResultFiles(readAll(t, files, "s2", "s0", "s1"), false)
	if err != nil {
		t.Fatal(err)
	}
	p := m.sum.Packages[0]
	a, b := p.Tests[0], p.Tests[1]
	if a.Name != "TestA" || a.Schedules != 30 || a.Steps != 300 || a.Stopped != "budget-schedules" {
		t.Errorf("TestA merged: %+v", a)
	}
	// The lowest failing schedule is the failure, with its shard's trace;
	// the strongest reason to stop is the test's.
	if b.Schedule != 5 || b.Failure != "report 5" || b.Schedules != 6+8+5 || b.Stopped != "failure" ||
		m.corpus["example.com/m\x00TestB"].Trace != "trace of 5" {
		t.Errorf("TestB merged: %+v, corpus %+v", b, m.corpus["example.com/m\x00TestB"])
	}
	var out bytes.Buffer
	if err := writeTestRecords(&out, m.sum, m.order); err != nil || !strings.Contains(out.String(), `"test":"TestB","schedules":19`) {
		t.Errorf("records: %v\n%s", err, &out)
	}
	for _, c := range []struct {
		names   []string
		partial bool
		want    string
	}{
		{[]string{"s0", "x1", "s2"}, false, "x1:1: a different run from s0's"},
		{[]string{"s0", "s1", "s1"}, false, "s1:1: shard 1/3 twice (s1 holds it too)"},
		{[]string{"s0", "s2"}, false, "missing shards 1/3 of 3 (-partial merges those given)"},
		{[]string{"s0", "u1", "s2"}, false, `u1: shard 1/3 did not finish (no "end" line`},
		{[]string{"s0", "h4"}, false, "h4:1: shard 1/4 of a run in 4 shards, s0 is of one in 3"},
		{[]string{"s0", "w"}, false, "w:1: shard (the whole run) of a run in 1 shard,"},
		{[]string{"s0", "u1"}, true, ""},
		{[]string{"w"}, false, ""},
	} {
		_, err := mergeResultFiles(readAll(t, files, c.names...), c.partial)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("merge %v (partial %v): %v, want %q", c.names, c.partial, err, c.want)
		}
	}
}

func TestReadResultsErrors(t *testing.T) {
	run := `{"kind":"run","version":1,"run":{"patterns":["./..."],"schedules":0}}` + "\n"
	for _, c := range []struct{ text, want string }{
		{`{"version":1,"test":"TestX","strategy":"pos","seed":1,"planned":1,"iterations":1,"steps":1,"elapsed_ns":1,"failures":0,"limit":1,"partial_orders":0}`, "not a result file"},
		{"", "f: empty"},
		{run + `{"kind":"test"}`, `f:2: a "test" line with the fields of another kind`},
		{run + `{"kind":"nope"}`, `f:2: kind "nope"`},
		{run + `{"kind":"test","test":{"package":"p","test":"T","schedules":-1}}`, "f:2: expected non-negative counts"},
		{run + `{"kind":"test","test":{"package":"p","test":"T","failure":"x"}}`, "f:2: a failing test's line says its failing schedule"},
		{run + `{"kind":"corpus","corpus":{"package":"p","test":"T","dir":".","path":"../x","trace":"t"}}`, `f:2: corpus path "../x"`},
		{run + `{"kind":"corpus","corpus":{"package":"p","test":"T","dir":"../up","path":"testdata/morpheus/T/x","trace":"t"}}`, "in a directory of the module"},
		{run + `{"kind":"end"}` + "\n" + `{"kind":"end"}`, `f:3: a line after the "end" line`},
		{run + run, `f:2: a second "run" line`},
		{run + "\n\n{", "f:4: expected a JSON result line"},
		{`{"kind":"run","version":2,"run":{}}`, "f:1: version 2: expected 1"},
		{`{"kind":"run","version":1,"shard":"3/3","run":{}}`, `f:1: shard "3/3"`},
		{run + `{"kind":"test","extra":1}`, "f:2: expected a JSON result line"},
	} {
		_, err := readResults(strings.NewReader(c.text), "f")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// FuzzReadResults: the decoder of result files rejects or accepts any
// input without panicking, and what it accepts merges and writes back.
func FuzzReadResults(f *testing.F) {
	f.Add(shardFile("0/2", "0", 3, true))
	f.Add(shardFile("", "7", -1, false))
	f.Fuzz(func(t *testing.T, text string) {
		rf, err := readResults(strings.NewReader(text), "f")
		if err != nil {
			if errors.Is(err, errNotRewritten) || strings.HasPrefix(err.Error(), "f") {
				return
			}
			t.Fatalf("error without the file's name: %v", err)
		}
		m, err := mergeResultFiles([]*resultFile{rf}, true)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := m.write(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := readResults(&b, "again"); err != nil {
			t.Fatalf("the merged file does not read back: %v\n%s", err, b.String())
		}
	})
}

// TestFuzzSeedsRead: the seed corpus of FuzzReadResults holds valid files,
// so that the fuzzer starts from inputs that reach the merge.
func TestFuzzSeedsRead(t *testing.T) {
	for _, name := range []string{"checks", "corpus"} {
		data, err := os.ReadFile(filepath.Join("testdata/fuzz/FuzzReadResults", name))
		if err != nil {
			t.Fatal(err)
		}
		_, lit, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
		text, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lit, "string("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rf, err := readResults(strings.NewReader(text), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := mergeResultFiles([]*resultFile{rf}, true); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
