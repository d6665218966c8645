package results_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/results"
)

func rec(test, shard string, its int, orders map[uint64]int) *results.Record {
	r := &results.Record{Version: results.Version, Test: test, Strategy: "random", Seed: 9, Shard: shard,
		Planned: 8, Iterations: its, Steps: int64(10 * its), Failures: 0, Limit: 8}
	r.SetOrders(orders)
	return r
}

func TestMerge(t *testing.T) {
	a := rec("T", "0/2", 4, map[uint64]int{1: 0, 2: 2})
	b := rec("T", "1/2", 4, map[uint64]int{2: 1, 3: 7})
	b.ElapsedNS = 50
	b.Failure = &results.Failure{Kind: "assertion", Iteration: 5}
	b.Limit, b.Failures = 5, 1
	m, err := results.Merge([]*results.Record{b, a}, false)
	if err != nil {
		t.Fatal(err)
	}
	got := m[0]
	// Orders: 2 first seen at 1; 3 at 7, past the failure at 5: dropped.
	if got.Iterations != 8 || got.Steps != 80 || got.Failures != 1 || got.ElapsedNS != 50 || got.Shards != 2 || got.Limit != 5 {
		t.Fatalf("merged %+v", got)
	}
	if want := map[uint64]int{1: 0, 2: 1}; !reflect.DeepEqual(got.OrderMap(), want) || got.PartialOrders != 2 {
		t.Fatalf("orders %v, want %v", got.OrderMap(), want)
	}
	if got.Failure == nil || got.Failure.Iteration != 5 {
		t.Fatalf("failure %+v", got.Failure)
	}
	if pts := results.Curve(got.OrderMap(), got.Limit, 5); !reflect.DeepEqual(pts, []results.Point{{1, 1}, {2, 2}, {3, 2}, {4, 2}, {5, 2}}) {
		t.Fatalf("curve %v", pts)
	}
}

func TestMergeErrors(t *testing.T) {
	other := rec("T", "1/2", 4, nil)
	other.Seed = 10
	for _, tc := range []struct {
		recs []*results.Record
		want string
	}{
		{[]*results.Record{rec("T", "0/2", 4, nil)}, "missing shards 1/2"},
		{[]*results.Record{rec("T", "0/2", 4, nil), rec("T", "0/2", 4, nil)}, "shard 0/2 twice"},
		{[]*results.Record{rec("T", "0/2", 4, nil), rec("T", "1/3", 4, nil)}, "shards of 2 and of 3"},
		{[]*results.Record{rec("T", "0/2", 4, nil), other}, "records of different runs"},
		{[]*results.Record{rec("T", "", 4, nil), rec("T", "", 4, nil)}, "an unsharded record among 2"},
	} {
		if _, err := results.Merge(tc.recs, false); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	good := `{"version":1,"test":"T","strategy":"s","seed":1,"planned":1,"iterations":1,"steps":1,"elapsed_ns":1,"failures":0,"limit":1,"partial_orders":0}`
	for _, tc := range []struct{ in, want string }{
		{good + "\n{", "r.jsonl:2: expected a JSON result record: unexpected EOF"},
		{good + "\n" + `{"version":1,x}`, "r.jsonl:2: column 14: expected a JSON result record: invalid character 'x'"},
		{`{"version":2,"test":"T"}`, "r.jsonl:1: version 2: expected 1"},
		{`{"version":1}`, "r.jsonl:1: expected a test name"},
		{`{"version":1,"test":"T","shard":"4/4"}`, `shard "4/4": expected i/N`},
		{`{"version":1,"test":"T","bogus":1}`, `unknown field "bogus"`},
		{`{"version":1,"test":"T","orders":[{"po":"xyz","first":0}],"partial_orders":1}`, `orders[0]: po "xyz": expected 16 hex digits`},
		{`{"version":1,"test":"T","partial_orders":3}`, "partial_orders 3: expected the number of orders, 0"},
		{`{"version":1,"test":"T","failure":{"kind":"panic","trace":"nonsense"}}`, "failure: "},
		{good + " " + good, "expected one JSON record per line"},
	} {
		_, err := results.Read(strings.NewReader(tc.in), "r.jsonl")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
	recs, err := results.Read(strings.NewReader("\n"+good+"\n\n"+good), "r.jsonl")
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
}

func TestAppendAndFollow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.jsonl")
	f := results.Follower{Path: path}
	if got := f.Next(); got != nil {
		t.Fatalf("no file yet: %v", got)
	}
	for i := 1; i <= 3; i++ {
		if err := results.Append(path, &results.Progress{Test: "T", Iterations: i}); err != nil {
			t.Fatal(err)
		}
	}
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(`{"test":"T","iter`) // a line being written
	got := f.Next()
	if len(got) != 3 || got[2].Iterations != 3 {
		t.Fatalf("read %+v", got)
	}
	fh.WriteString(`ations":4}` + "\n")
	fh.Close()
	if got := f.Next(); len(got) != 1 || got[0].Iterations != 4 {
		t.Fatalf("then read %+v", got)
	}
}

// FuzzRead checks that Read never panics, and that what it accepts writes
// back to records it reads the same.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"version":1,"test":"T","strategy":"s","seed":1,"planned":1,"iterations":1,"steps":1,"elapsed_ns":1,"failures":0,"limit":1,"partial_orders":0}`))
	f.Add([]byte(`{"version":1,"test":"T","strategy":"s","seed":1,"planned":1,"iterations":1,"steps":9,"elapsed_ns":1,"failures":1,"limit":1,"partial_orders":0,"failure":{"kind":"assertion","message":"m","iteration":0,"seed":3,"steps":9,"original_steps":12,"shrink_timed_out":true}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := results.Read(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := results.Write(&b, recs); err != nil {
			t.Fatal(err)
		}
		again, err := results.Read(&b, "again")
		if err != nil {
			t.Fatalf("written records do not read back: %v", err)
		}
		if !reflect.DeepEqual(recs, again) {
			t.Fatalf("records changed on the way back")
		}
	})
}
