package rt_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// What a goroutine wrote before it logged on the test's t happens before what
// the test reads after its next call on t: package testing takes t's lock in
// both, which orders them under go test -race (hashicorp/raft's
// TestNetworkTransport_ListenBackoff: a stream layer's counter, a logger that
// calls t.Log, then require.True, whose t.Helper takes the lock). Before, the
// read was reported as a data race.
func TestTLockOrders(t *testing.T) {
	type logger interface{ Logf(string, ...any) }
	for _, c := range []struct {
		name      string
		log, call func(t *testing.T)
	}{
		{"t.Log then t.Helper", func(t *testing.T) { rt.T(t).Log("counted") }, func(t *testing.T) { t.Helper(); rt.MarkHelper() }},
		{"a logger then t.Failed", func(t *testing.T) { var l logger = t; rt.TB(l).Logf("counted") }, func(t *testing.T) { _ = rt.T(t).Failed() }},
		{"a TB's Logf then its Helper", func(t *testing.T) { var tb testing.TB = t; rt.TB(tb).Logf("counted") }, func(t *testing.T) { var tb testing.TB = t; rt.TB(tb).Helper() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt.Test(t, func(t *testing.T) {
				n := new(int)
				rt.Go(func() {
					*rt.Write(n, "n")++
					c.log(t)
				})
				rt.Sleep(time.Second) // no edge: only t's lock orders the two
				c.call(t)
				if got := *rt.Read(n, "n"); got != 1 {
					rt.T(t).Fatalf("n = %d", got)
				}
			})
		})
	}
}

// The lock orders only what came before the goroutine's call on t: a write
// after it still races with the test's read.
func TestTLockRaceAfterLog(t *testing.T) {
	if os.Getenv("RT_FATAL_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			n := new(int)
			rt.Go(func() {
				rt.T(t).Log("about to count")
				*rt.Write(n, "n")++
			})
			rt.Sleep(time.Second)
			t.Helper()
			rt.MarkHelper()
			_ = *rt.Read(n, "n")
		})
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	r, log := child(t, "TestTLockRaceAfterLog")
	if r.Kind != "race" || !strings.Contains(r.Message, "testlock_test.go:") {
		t.Fatalf("want a race, got kind %q: %s\n%s", r.Kind, r.Message, log)
	}
}
