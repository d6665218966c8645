package shapes_test

import (
	"strings"
	"testing"
)

// A value method called through a pointer copies the pointee as its
// receiver (testdata/valuerecv): that copy is a plain read of the whole
// struct, and while a goroutine adds to one of its fields atomically, the
// first or another, it is the race go test -race reports. The atomic load
// where the field is passes.
func TestValueReceiverCopyRace(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "valuerecv", 50, 1)
	sum := explore(t, cfg)
	copied, loaded, second := find(sum, "TestValueReceiver"), find(sum, "TestPointerReceiver"), find(sum, "TestValueReceiverSecondField")
	if copied == nil || copied.Kind != "race" || !strings.Contains(copied.Failure, "data race on *s:") ||
		!strings.Contains(copied.Failure, "stats_test.go:15") || !strings.Contains(copied.Failure, "stats.go:15") {
		t.Fatalf("want the race between the receiver's copy (stats_test.go:15) and the atomic add (stats.go:15), got %+v", copied)
	}
	// The copy covers every field: the same race on the struct's second.
	if second == nil || second.Kind != "race" || !strings.Contains(second.Failure, "data race on s.hits:") ||
		!strings.Contains(second.Failure, "stats_test.go:40") || !strings.Contains(second.Failure, "stats.go:31") {
		t.Fatalf("want the race between the receiver's copy (stats_test.go:40) and the atomic add to the second field (stats.go:31), got %+v", second)
	}
	if loaded == nil || loaded.Failure != "" || loaded.Schedules != cfg.Schedules {
		t.Errorf("TestPointerReceiver: %+v, want %d passing schedules", loaded, cfg.Schedules)
	}
}
