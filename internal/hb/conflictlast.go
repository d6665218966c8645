package hb

// The latest accesses of a crowded resource by task id: where a thousand
// goroutines take turns on one semaphore, an access that conflicts with
// none of the tasks whose accesses are unmarked (scanOpen's open lists)
// must still learn whether it conflicts with any of the others, and mostly
// it conflicts with none. Asking each task in rs.tasks for its latest
// access and the clock's entry for it is a dozen loads and branches a
// task; with the latest accesses in an array indexed like the clock, it is
// one pass over two arrays side by side.

// lastAt is, while a markResource's tasks are many (few is false), the
// clock entry of each task's latest access ([0]) and latest write ([1], kept
// once the resource is read), indexed by task id; 0 for none.
type lastAt [2][]uint32

// set records the clock entry clk of task t's latest access of kind k.
func (la *lastAt) set(k int, t int32, clk uint32) {
	a := la[k]
	if int(t) >= len(a) {
		a = grownTo(a, int(t)+1)
		la[k] = a
	}
	a[t] = clk
}

// grownTo returns a extended with zeros to n entries, reusing its memory.
func grownTo(a []uint32, n int) []uint32 {
	l := len(a)
	if cap(a) >= n {
		a = a[:n]
		clear(a[l:])
		return a
	}
	return append(a, make([]uint32, n-l)...)
}

// build fills la from the tasks of rs, when they become many.
func (la *lastAt) build(rs *markResource) {
	for k := range la {
		la[k] = la[k][:0]
		for x := range rs.tasks {
			if t := &rs.tasks[x]; t.last[k] != 0 {
				la.set(k, t.task, t.last[k])
			}
		}
	}
}

// reset empties la for a new walk, keeping its memory.
func (la *lastAt) reset() {
	la[0], la[1] = la[0][:0], la[1][:0]
}

// unknown reports whether some entry of last (a kind's array of lastAt)
// exceeds vc's entry for the same task: whether vc does not know some
// task's latest access.
func unknown(last []uint32, vc VC) bool {
	n := min(len(last), len(vc))
	l, v := last[:n], vc[:n]
	for i, x := range l {
		if x > v[i] {
			return true
		}
	}
	for _, x := range last[n:] {
		if x != 0 {
			return true
		}
	}
	return false
}
