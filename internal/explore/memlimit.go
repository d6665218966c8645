package explore

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// While a run is under a TimeLimit, the Go runtime's soft memory limit
// (debug.SetMemoryLimit) is lowered to the memory the process used when
// the run began plus HeapLimit and a quarter of it. Go's collector lets the
// heap double between collections: a schedule that keeps a gigabyte and a
// half live (a step limit's ten million steps, each kept for the race
// check) reached twice that in resident memory before the HeapLimit cut it.
// Under the soft limit it collects more often as the limit nears instead,
// and the process stays near what it keeps. A limit the user set
// (GOMEMLIMIT) is never raised, and the limit goes back to it once no run
// is under a TimeLimit.
var memLimit struct {
	sync.Mutex
	runs map[*explorer]int64 // the limit each run under a TimeLimit wants
	orig int64               // the limit before the first of them
}

// totalMemory returns the memory the Go runtime has mapped and not
// released, what the soft limit counts.
func totalMemory() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// limitMemory lowers the soft memory limit for x's run, until the
// function it returns is called.
func (x *explorer) limitMemory() (release func()) {
	want := totalMemory() + HeapLimit + HeapLimit/4
	if want > math.MaxInt64 {
		return func() {}
	}
	memLimit.Lock()
	defer memLimit.Unlock()
	if len(memLimit.runs) == 0 {
		memLimit.orig = debug.SetMemoryLimit(-1)
		memLimit.runs = map[*explorer]int64{}
	}
	memLimit.runs[x] = int64(want)
	setMemoryLimit()
	return func() {
		memLimit.Lock()
		defer memLimit.Unlock()
		delete(memLimit.runs, x)
		setMemoryLimit()
	}
}

// setMemoryLimit sets the limit the runs want, the highest of theirs (a
// run's own growth is bound by its HeapLimit cut, and the lowest would
// squeeze the others), never above the original one; the original one
// when no run wants any. memLimit is locked.
func setMemoryLimit() {
	limit := int64(-1)
	for _, l := range memLimit.runs {
		limit = max(limit, l)
	}
	if limit < 0 || limit > memLimit.orig {
		limit = memLimit.orig
	}
	debug.SetMemoryLimit(limit)
}
