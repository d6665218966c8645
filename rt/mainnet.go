package rt

import (
	"slices"
	"sync"
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
// NetReached at its entry, has those init functions and TestMains call
// RootRuns at theirs, and wraps the tests whose only reason is init or
// TestMain in MainNetTest: such a test runs on the real network if one of
// those functions was called while such a root ran (by it or by a
// goroutine meanwhile: package initialization runs one init at a time,
// and TestMain's window closes when m.Run starts the first test), and
// under control otherwise. Another package's initialization
// does not count (go-systemd's journal dials its socket in its init, in
// every binary that imports it): the static rule never followed it. So
// each window names its test binary, and a package's init counts only in
// its own.

var (
	// testsBegun is set when the first test of the process starts.
	testsBegun atomic.Bool

	rootsMu sync.Mutex
	// open lists the test binaries (package paths) whose roots are
	// running now, one entry a root.
	open []string
	// reached holds the test binaries in whose root's window a function
	// that listens, dials or serves was called before the first test.
	reached = map[string]bool{}
)

// RootRuns opens the window of an init function or TestMain of test binary
// bin's package (its path, without _test) that may reach the network; the
// function it returns, deferred, closes it. (TestMain's stays open through
// m.Run, where the first test closes it.) The binary is named because the
// package's init also runs in the test binaries of the packages that
// import it, where it is no root.
func RootRuns(bin string) (end func()) {
	rootsMu.Lock()
	open = append(open, bin)
	rootsMu.Unlock()
	return func() {
		rootsMu.Lock()
		if i := slices.Index(open, bin); i >= 0 {
			open = slices.Delete(open, i, i+1)
		}
		rootsMu.Unlock()
	}
}

// NetReached notes that a function whose body listens, dials or serves
// was called. Only a call in a root's window before the first test counts.
func NetReached() {
	if testsBegun.Load() {
		return
	}
	rootsMu.Lock()
	for _, bin := range open {
		reached[bin] = true
	}
	rootsMu.Unlock()
}

// testBegins notes that a test starts: the network code outside control
// used before it is known from now on.
func testBegins() { testsBegun.Store(true) }

// MainNetTest runs a test of test binary bin whose package's init or
// TestMain may listen or dial (why names the path): on the real network,
// as RealTest, if they did before the first test started, and under
// control, as Test, if they did not.
func MainNetTest(t *testing.T, bin, why string, body func(t *testing.T)) {
	t.Helper()
	testBegins()
	rootsMu.Lock()
	real := reached[bin]
	rootsMu.Unlock()
	if real {
		RealTest(t, why, body)
		return
	}
	Test(t, body)
}
