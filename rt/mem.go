package rt

import (
	"unsafe"
	"weak"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// Plain memory that goroutines may share. The rewriter turns a load of a
// shared variable, field or element x into *Read(&x), a store into
// *Write(&x) = v, and a map access m[k] into ReadMap(m)[k] or
// WriteMap(m)[k] = v (delete, clear and map assignment are writes). Each is
// an op on the location, read or write (trace.KindMemRead,
// trace.KindMemWrite), so the strategy can interleave goroutines at plain
// memory, and each is checked for data races against the accesses of other
// goroutines that morpheus's synchronisation does not order before it.
// Two rules make fewer of them ops: memory one goroutine owns (owned.go),
// and a task that runs alone, after every task before it ended and was
// joined (core.Run.Alone): no other task can run or race with it.
//
// A location is an address: a field, an element, a variable; a map is one
// location (its header), as for Go's race detector. The first access of a
// schedule to an address gives it a resource of the schedule. The table
// holds the address's object weakly, so that the schedule does not keep
// alive what the program dropped: once the object is collected, an access
// to the same address is to another object and gets a location of its own
// (whose accesses do not inherit the old one's).

// Rewritten turns morpheus's data-race detector on for this process: every
// rewritten file calls it at initialisation (var _ = rt.Rewritten()), so the
// primitives record what the detector needs only in binaries with rewritten
// code, whose accesses it checks. It also takes the driver's settings out
// of the process's environment (env.go). It returns true.
func Rewritten() bool {
	core.EnableRaceChecks()
	takeSettings()
	return true
}

// Read is the load of *p: it runs a read op on p's location and returns p.
// name is the expression the code loads ("c.n"), which names the location
// in reports.
//
//go:noinline
func Read[T any](p *T, name string) *T {
	if t := core.CurrentTask(); t != nil && p != nil {
		access(t, unsafe.Pointer(p), false, name, goruntime.CallerPC())
	}
	return p
}

// Write is the store to *p: it runs a write op on p's location and returns
// p. name is the expression the code stores to.
//
//go:noinline
func Write[T any](p *T, name string) *T {
	if t := core.CurrentTask(); t != nil && p != nil {
		access(t, unsafe.Pointer(p), true, name, goruntime.CallerPC())
	}
	return p
}

// ReadMap is a read of map m (an index, a range, len): a read op on the
// map's location. name is the map's expression ("c.m"). It returns m.
//
//go:noinline
func ReadMap[M ~map[K]V, K comparable, V any](m M, name string) M {
	if t := core.CurrentTask(); t != nil && m != nil {
		access(t, *(*unsafe.Pointer)(unsafe.Pointer(&m)), false, name, goruntime.CallerPC())
	}
	return m
}

// WriteMap is a write of map m (an assignment to an element, delete,
// clear): a write op on the map's location. name is the map's expression.
// It returns m.
//
//go:noinline
func WriteMap[M ~map[K]V, K comparable, V any](m M, name string) M {
	if t := core.CurrentTask(); t != nil && m != nil {
		access(t, *(*unsafe.Pointer)(unsafe.Pointer(&m)), true, name, goruntime.CallerPC())
	}
	return m
}

// access runs the op of an access to the location at p, by the expression
// name. A task that runs alone (core.Run.Alone: no other task is left, and
// every task that ended is ordered before it) makes no op, but for one
// access every so many, and records nothing of the location.
func access(t *core.Task, p unsafe.Pointer, write bool, name string, pc uintptr) {
	accessValue(t, p, nil, write, name, pc)
}

// accessValue is access of the value at p and of its parts (value.go).
func accessValue(t *core.Task, p unsafe.Pointer, parts []part, write bool, name string, pc uintptr) {
	r := t.Run()
	if r.Abandoned() {
		r.Unwind() // the watchdog gave up on the task: it must not touch the schedule's state
	}
	alone := r.Alone(t)
	if alone == core.AloneSkip {
		return
	}
	s := state(r)
	l := s.memLoc(r, p, name, "", t.ID)
	for _, pt := range parts {
		pl := s.memLoc(r, unsafe.Add(p, pt.off), name, pt.suffix, t.ID)
		if pl.owner != t.ID {
			pl.owner, l.owner = ownerNone, ownerNone // shared: the access is a step
		}
		pl.written = pl.written || write
		l.written = l.written || pl.written // no read of unwritten memory (unwritten.go) once a part is written
	}
	if !s.ownedAccess(r, t, l, write, pc, alone == core.AloneStep) {
		r.Access(t, l.res, write, pc)
		if l.owner == t.ID || l.unwrittenRead(write) {
			s.ownedStep, s.ownedLeft = r.LastStep(), ownedRun // no op of the program's (owned.go)
		}
	}
	for _, pt := range parts { // at the access's step, or after it as owned memory's
		noteOwned(r, t, s.memLoc(r, unsafe.Add(p, pt.off), name, pt.suffix, t.ID), write, pc)
	}
}

// location returns the resource of the location at p in r's schedule. A
// location is named by the expression of its first access in the schedule
// (core.LocationName).
func location(r *core.Run, p unsafe.Pointer, name string) uint32 {
	s := state(r)
	l := s.memLoc(r, p, name, "", ownerNone)
	l.owner = ownerNone // an atomic access: another task's plain ones are steps
	l.written = true    // and their reads too (unwritten.go)
	return l.res
}

// memLoc returns the location at p in the schedule, made at its first
// access, by task (owned by it), named by name, or for a part of a value
// by name and the part's suffix. The location of a recent access comes
// from a cache (memCache) without the table's look-up.
func (s *runState) memLoc(r *core.Run, p unsafe.Pointer, name, suffix string, task int32) *memLoc {
	if s.mem == nil {
		s.mem = make(map[uintptr]*memLoc)
		s.memCache = new([memCacheSize]memCacheEntry)
	}
	c := &s.memCache[uintptr(p)>>memCacheShift&(memCacheSize-1)]
	if c.p == uintptr(p) && c.l.alive() {
		return c.l
	}
	s.lookups++
	l := s.mem[uintptr(p)]
	if l == nil || !l.alive() {
		if suffix != "" {
			name = partName(name, suffix)
		}
		l = &memLoc{res: r.NewResource(), name: name, owner: task, at: -2}
		if isOffHeap(p) {
			l.offHeap = true // no weak pointer there (offheap.go)
		} else {
			l.obj = weakObject(p)
		}
		s.mem[uintptr(p)] = l
	}
	c.p, c.l = uintptr(p), l
	return l
}

// The cache of locations: a table's look-up is most of an access's cost
// where the access makes no op (memory of the task's own, owned.go), as a
// cipher's tables read thousands of times per block, each a hash, a probe
// and a weak pointer's check. The cache holds the location of the latest
// access to each of memCacheSize slots of addresses (by the address's
// word), and an entry holds while its object lives (memLoc.alive): it
// gives exactly what the table gives, whose entry it points to, so no
// decision and no check of the detector changes. An entry does not keep
// the object alive.
const (
	memCacheSize  = 1 << 11 // blowfish's key schedule, 4 KB of S-boxes and its P-array, fits
	memCacheShift = 2       // a 4-byte word a slot
)

// memCacheEntry is an entry of the cache: the address and its location.
type memCacheEntry struct {
	p uintptr
	l *memLoc
}

// weakObject holds p's object weakly: a weak pointer to the object's start
// (goruntime.ObjectBase), which is alive exactly while p's is. The runtime
// keeps one record per address a weak pointer is made to, in a list per
// span that every weak.Make walks: one per field or element accessed made
// each new location's cost grow with the object (a slice's n elements cost
// O(n²)); one per object keeps it flat. Outside the heap (a package
// variable) the weak pointer is p's own, as the runtime requires.
func weakObject(p unsafe.Pointer) weak.Pointer[byte] {
	if base := goruntime.ObjectBase(p); base != nil {
		return weak.Make((*byte)(base))
	}
	return weak.Make((*byte)(p))
}

// alive reports whether l's object is still alive, so that an access to
// its address is to it (not to another object made at the same address
// once it was collected). It reads the weak pointer's handle (not Value,
// which costs a span's look-up to mark the object for a collection under
// way): an access's check asks only whether the object is gone.
func (l *memLoc) alive() bool { return l.offHeap || !goruntime.WeakGone(l.obj) }

// memLoc is a location of the schedule: its resource, and its object,
// held weakly (nil once collected: the address may then be another's), or
// by its address in memory outside Go's heap.
type memLoc struct {
	res     uint32
	obj     weak.Pointer[byte]
	offHeap bool
	name    string // the expression of its first access
	// owner is the only task that has accessed it in the schedule, or
	// ownerNone (owned.go); at is the event its last noted access belongs
	// to, mark the run's synchronisations noted by then (core.Run.Noted),
	// wrote whether one of the accesses noted there wrote.
	owner int32
	at    int
	mark  int
	wrote bool
	// written: a task wrote it in the schedule, with a plain access or
	// an atomic one of any kind (unwritten.go).
	written bool
}

func init() { core.LocationName = locationName }

// locationName returns the name of the location res of r's schedule, ""
// if it has none: the expression of its first access. Only a race's report
// asks, so a walk of the schedule's locations will do.
func locationName(r *core.Run, res uint32) string {
	for _, l := range state(r).mem {
		if l.res == res {
			return l.name
		}
	}
	return ""
}

// raceSync makes the calling task acquire and release the synchronisation
// object at p for the data-race detector (core.Run.RaceSync): for what rt
// synchronises with locks of its own, outside the scheduler's view (a
// context's cancellation and its Err).
func raceSync(p unsafe.Pointer) {
	if t := core.CurrentTask(); t != nil {
		t.Run().RaceSync(t.ID, core.AddrKey(p))
	}
}
