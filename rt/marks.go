package rt

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Function marks: which of the module's functions a test executed. The
// rewriter gives each file of the module's packages an array of marks, one
// per function declared in it (rewrite.MarkKey), registered with Marks,
// and makes each such function, and each closure inside it, set its mark
// at entry (Mark): a store, not an op, so nothing about the schedules
// changes. A top-level test's record lists the functions marked while it
// ran, by any goroutine in any of its schedules, with those marked outside
// every test (package initialisation, TestMain, between tests): an
// over-approximation of what its outcome depends on, which the driver uses
// to keep a test's outcome after an edit of functions it never executed.

// markedFile is one file's marks.
type markedFile struct {
	pkg   string
	names []string
	marks []uint32
}

var marks struct {
	sync.Mutex
	files   []*markedFile
	outside map[string]bool // marked outside every test so far
	active  int             // top-level tests running
}

// Marks registers a file's marks: marks[i] is the mark of the function
// names[i] of package pkg. The rewriter calls it from the file's package
// initialisation. It returns true.
func Marks(pkg string, names []string, m []uint32) bool {
	marks.Lock()
	defer marks.Unlock()
	marks.files = append(marks.files, &markedFile{pkg: pkg, names: names, marks: m})
	return true
}

// Mark sets a function's mark, at its entry: a load once set, so a
// function called in a loop costs a load and a branch. Every goroutine
// sets the same marks, from 0 to 1 only, and rt reads them at a test's
// end, after the test's goroutines synchronised with it: plain accesses,
// kept from Go's race detector (go:norace; under -race the call is not
// inlined, but costs no detector's call either).
//
//go:norace
func Mark(p *uint32) {
	if *p == 0 {
		*p = 1
	}
}

// marksBegin notes that a top-level test starts: when none is running,
// what was marked since the last one ended (initialisation, TestMain,
// goroutines left behind) counts for every later test, and the marks are
// cleared.
func marksBegin() {
	marks.Lock()
	defer marks.Unlock()
	if marks.active == 0 {
		sweepMarks(func(name string) {
			if marks.outside == nil {
				marks.outside = map[string]bool{}
			}
			marks.outside[name] = true
		})
	}
	marks.active++
}

// marksEnd notes that a top-level test ended; when none runs any more the
// marks are cleared (a test running alongside keeps them: its record
// holds what was marked while it ran, the other's included).
func marksEnd() {
	marks.Lock()
	defer marks.Unlock()
	marks.active--
	if marks.active == 0 {
		sweepMarks(func(string) {})
	}
}

// marksNow returns the functions marked since the running tests began,
// with those marked outside every test, as "PKG NAME" sorted, and whether
// the process has marks at all (a process of no module package's code
// has none, and its tests' records say nothing of what they executed).
func marksNow() ([]string, bool) {
	marks.Lock()
	defer marks.Unlock()
	if len(marks.files) == 0 {
		return nil, false
	}
	seen := map[string]bool{}
	for name := range marks.outside {
		seen[name] = true
	}
	for _, f := range marks.files {
		for i := range f.marks {
			if atomic.LoadUint32(&f.marks[i]) != 0 {
				seen[f.pkg+" "+f.names[i]] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	slices.Sort(out)
	return out, true
}

// sweepMarks calls found with each mark set and clears it.
func sweepMarks(found func(string)) {
	for _, f := range marks.files {
		for i := range f.marks {
			if atomic.LoadUint32(&f.marks[i]) != 0 {
				atomic.StoreUint32(&f.marks[i], 0)
				found(f.pkg + " " + f.names[i])
			}
		}
	}
}
