package rt

import (
	"sync/atomic"
	"testing"
)

// A package whose init or TestMain may listen or dial (a call path of
// theirs reaches a site of the network) would have every test on the real
// network: code outside control listens and dials there, and a test that
// talks to what it set up must be there too. Whether that path runs is
// often decided at run time: etcd's clientv3 TestMain starts its cluster
// only when the -test.run pattern selects the examples. So the rewriter
// has every function whose own body listens, dials or serves call
// NetReached at its entry, and wraps the tests whose only reason is init or
// TestMain in MainNetTest: such a test runs on the real network if one of
// those functions ran before the first test of the process started (in
// package initialization, in TestMain before m.Run, or in a goroutine they
// started), and under control otherwise.

var (
	// testsBegun is set when the first test of the process starts.
	testsBegun atomic.Bool
	// netBeforeTests is set if a function that listens, dials or serves
	// ran before that.
	netBeforeTests atomic.Bool
)

// NetReached notes that a function whose body listens, dials or serves
// was called. Only calls before the first test count.
func NetReached() {
	if !testsBegun.Load() {
		netBeforeTests.Store(true)
	}
}

// testBegins notes that a test starts: the network code outside control
// used before it is known from now on.
func testBegins() { testsBegun.Store(true) }

// MainNetTest runs a test whose package's init or TestMain may listen or
// dial (why names the path): on the real network, as RealTest, if they did
// before the first test started, and under control, as Test, if they did
// not.
func MainNetTest(t *testing.T, why string, body func(t *testing.T)) {
	t.Helper()
	testBegins()
	if netBeforeTests.Load() {
		RealTest(t, why, body)
		return
	}
	Test(t, body)
}
