package shapes_test

import (
	"strings"
	"testing"
)

// A value method called through a pointer copies the pointee as its
// receiver (testdata/valuerecv): that copy is a plain read of the whole
// struct, and while a goroutine adds to its first field atomically it is
// the race go test -race reports. The atomic load where the field is
// passes.
func TestValueReceiverCopyRace(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "valuerecv", 50, 1)
	sum := explore(t, cfg)
	copied, loaded := find(sum, "TestValueReceiver"), find(sum, "TestPointerReceiver")
	if copied == nil || copied.Kind != "race" || !strings.Contains(copied.Failure, "data race on *s:") ||
		!strings.Contains(copied.Failure, "stats_test.go:15") || !strings.Contains(copied.Failure, "stats.go:15") {
		t.Fatalf("want the race between the receiver's copy (stats_test.go:15) and the atomic add (stats.go:15), got %+v", copied)
	}
	if loaded == nil || loaded.Failure != "" || loaded.Schedules != cfg.Schedules {
		t.Errorf("TestPointerReceiver: %+v, want %d passing schedules", loaded, cfg.Schedules)
	}
}
