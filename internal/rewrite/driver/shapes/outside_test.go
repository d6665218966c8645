package shapes_test

import (
	"strings"
	"testing"
)

// Code outside the goroutines a test starts never takes the test process
// down: package initialization and TestMain use channels, locks and
// goroutines as in Go; finalizers and cleanups registered in a schedule run
// at its end, under control (the sweepers they stop are no leak); a synctest
// bubble is the schedule; tests whose parameter is blank or unnamed are run
// under control, and so is a context.AfterFunc callback. A goroutine's
// runtime.Goexit ends it only; t.FailNow on a goroutine and a bare Goexit of
// the test's body fail the test, as under go test, at their lines. A
// package-level sync.Once whose f ran in an earlier schedule stays done, and
// a channel made at initialization that an earlier schedule, or code outside
// control, closed is closed, as the memory beside it says; the values
// initialization left in a channel's buffer, and a Once it did, are the first
// schedule's, as under go test. A
// flush daemon that init started takes a lock the test takes, and fails no
// schedule. A lock that initialization or TestMain holds is locked for every
// schedule: a test's goroutine that unlocks it lets the test's Lock through,
// and a Lock nobody unlocks is a deadlock, where go test hangs.
func TestOutside(t *testing.T) {
	t.Parallel()
	sum := explore(t, testdataConfig(t, "outside", 20, 1))
	for _, name := range []string{"TestFinalizer", "TestCleanup", "TestBlank", "TestUnnamed", "TestGoexit", "TestSynctest", "TestAfterFunc", "TestPackageOnce", "TestPackageChan", "TestInitClosed", "TestInitTokens", "TestInitOnce", "TestDaemonLock", "TestInitLockReleased", "TestMainLockReleased"} {
		ts := find(sum, name)
		if ts == nil || ts.Failure != "" || ts.Schedules != 20 {
			t.Errorf("%s: %+v", name, ts)
		}
	}
	for name, want := range map[string][3]string{
		"TestGoexitFailNow":         {"assertion", "outside_test.go:108", "t.FailNow"},
		"TestGoexitMain":            {"panic", "outside_test.go:116", "test executed panic(nil) or runtime.Goexit"},
		"TestInitLockNeverUnlocked": {"deadlock", "", "first used at locks_test.go:47 (locked outside control by package initialization or TestMain"},
	} {
		ts := find(sum, name)
		if ts == nil || ts.Kind != want[0] || ts.Location != want[1] || !strings.Contains(ts.Failure, want[2]) {
			t.Errorf("%s: want %s at %s, got %+v", name, want[0], want[1], ts)
		}
	}
}
