package results_test

import (
	"reflect"
	"testing"

	"github.com/morpheus-go/morpheus/internal/results"
)

// Every shard replays the same corpus: the merged record lists each stale
// entry once.
func TestMergeStale(t *testing.T) {
	a := rec("T", "0/2", 4, nil)
	b := rec("T", "1/2", 4, nil)
	a.Stale = []string{"testdata/morpheus/T/bb: at step 3", "testdata/morpheus/T/aa: at step 2"}
	b.Stale = []string{"testdata/morpheus/T/aa: at step 2", "testdata/morpheus/T/bb: at step 3"}
	m, err := results.Merge([]*results.Record{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"testdata/morpheus/T/aa: at step 2", "testdata/morpheus/T/bb: at step 3"}; !reflect.DeepEqual(m[0].Stale, want) {
		t.Fatalf("stale %q, want %q", m[0].Stale, want)
	}
}
