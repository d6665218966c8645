package rt

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Goroutines a test on the real network leaves behind. A test that RealTest
// runs starts plain goroutines (rt.Go outside control), and as under go test
// some outlive it: hashicorp/raft's TestRaft_runFollower_State_Transition
// runs `go r.runFollower()` on a node it never shuts down, whose loop goes on
// counting into the package's global metrics sink. Every later test's
// schedule uses that sink too, and the goroutine, running outside control,
// closed a channel one of them had made there: each such schedule failed
// with "called outside control", a false alarm of a test that did nothing
// wrong.
//
// A goroutine a schedule leaves behind ends with its schedule; one a real
// test leaves behind ends when it reaches an object that a running schedule
// uses (ctl.LeftBehind): the call does not happen, and the goroutine ends as
// by runtime.Goexit (its deferred calls run, so a lock it holds outside
// control is released). Until then it goes on outside control, as under go
// test, so a later real test that talks to it still finds it. Goroutines
// started in a package's init or in TestMain, which run beside every test,
// are not a test's: their call still fails the schedule.

// realTests holds the real tests running now; realLatest is the one that
// started last (0: none).
var (
	realMu     sync.Mutex
	realTests  = map[uint64]bool{}
	realSeq    uint64
	realLatest atomic.Uint64
)

// realOwners maps a goroutine that a real test started (or one that such a
// goroutine started) to that test.
var realOwners sync.Map // goruntime.GoroutineKey -> uint64

// beginReal records that a real test starts and returns the function that
// records its end.
func beginReal() (end func()) {
	realMu.Lock()
	realSeq++
	id := realSeq
	realTests[id] = true
	realMu.Unlock()
	realLatest.Store(id)
	return func() {
		realMu.Lock()
		delete(realTests, id)
		realMu.Unlock()
		realLatest.CompareAndSwap(id, 0)
	}
}

// realOwner returns the real test whose goroutine a go statement outside
// control starts (0: none): the calling goroutine's test if it is one a
// real test started, else, while a real test runs, that test, unless the
// caller is a daemon (started in init or TestMain, before any real test).
func realOwner() uint64 {
	if id, ok := realOwners.Load(goruntime.GoroutineKey()); ok {
		return id.(uint64)
	}
	id := realLatest.Load()
	if id == 0 || ctl.InDaemon() {
		return 0
	}
	return id
}

// ownedBy runs f as a goroutine of real test id.
func ownedBy(id uint64, f func()) {
	k := goruntime.GoroutineKey()
	realOwners.Store(k, id)
	defer realOwners.Delete(k)
	f()
}

// leftBehind reports whether the calling goroutine is one a real test
// started that is over.
func leftBehind() bool {
	id, ok := realOwners.Load(goruntime.GoroutineKey())
	if !ok {
		return false
	}
	realMu.Lock()
	defer realMu.Unlock()
	return !realTests[id.(uint64)]
}

func init() {
	ctl.LeftBehind = func() {
		if leftBehind() {
			runtime.Goexit()
		}
	}
}
