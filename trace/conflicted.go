package trace

// Conflicted marks every step event of t that conflicts with another one
// (as Conflicts defines a conflict): buf[i] is true if event i is one side
// of at least one conflicting pair. buf is reused if it is long enough.
//
// It marks what calling Conflicts with func(i, j) { buf[i], buf[j] = true,
// true } marks, without listing the pairs: where many tasks race on one
// resource (a thousand goroutines on one semaphore) the pairs grow with
// the square of the accesses, while marking skips the accesses it has
// already marked, so its cost stays near the number of events times the
// number of tasks touching their resources.
func Conflicted(t *Trace, buf []bool) []bool {
	if cap(buf) < len(t.Events) {
		buf = make([]bool, len(t.Events))
	} else {
		buf = buf[:len(t.Events)]
		clear(buf)
	}
	var w syncWalker
	w.init(t)
	var m markRaces
	var k killWatch
	k.reset(t, len(w.clock))
	for j := range t.Events {
		vc := w.step(t, j)
		if vc == nil {
			continue
		}
		e := &t.Events[j]
		if i := k.race(e, vc); i >= 0 {
			buf[i], buf[j] = true, true
		}
		k.after(j, e, vc)
		if e.Res == 0 {
			continue
		}
		m.access(buf, j, e, w.raceClock(vc))
	}
	return buf
}

// markRaces is hbRaces for Conflicted: per resource and task the accesses
// so far, each list with a range of positions known to be marked already.
type markRaces struct {
	res   resIndex // resource -> index in byRes
	byRes []markResource
}

// markResource is one resource's accesses by task. What a scan of the
// tasks reads (the task, the clock entries of its latest access and latest
// write, whether its lists have unmarked accesses) is kept together, one
// markTask each, so that the scan reads memory in order; and the tasks whose
// list (of all accesses, of writes) has unmarked accesses are listed in
// open, so that an access that conflicts with many tasks whose accesses are
// all marked already visits only those with something left to mark.
//
// Until the resource is first read every access is a write, and the list of
// writes would be a copy of the list of all accesses that nothing looks at
// (only a read checks the writes): the writes' lists, entries and open list
// are kept only once read is set, and the first read builds them from the
// lists of all accesses (see readFirst).
type markResource struct {
	tasks []markTask
	index map[int32]int // task -> its index in tasks, once they are many (see find)
	lists []markTaskAccesses
	open  [2][]int32 // [0] all, [1] writes: tasks (indices) with unmarked accesses
	read  bool       // the resource has been read: [1] of lists, open and markTask kept
}

// markTask is one task's entries of a markResource: [0] for all its
// accesses, [1] for its writes.
type markTask struct {
	task   int32
	last   [2]uint32 // clock entry of the latest access, write; 0 if none (entries start at 1)
	isOpen [2]bool   // the task is in open[k]
}

type markTaskAccesses struct {
	lists [2]markList // [0] all accesses, [1] writes
}

// reopen lists task x as having unmarked accesses of kind k.
func (rs *markResource) reopen(k, x int) {
	if t := &rs.tasks[x]; !t.isOpen[k] {
		t.isOpen[k] = true
		rs.open[k] = append(rs.open[k], int32(x))
	}
}

// readFirst keeps the writes' lists from the first read of rs on: before it
// every access was a write and no read marked any, so each task's list of
// writes is its list of all accesses, none of them marked, and every task
// is open.
func (rs *markResource) readFirst() {
	rs.read = true
	rs.open[1] = rs.open[1][:0]
	for x := range rs.tasks {
		t := &rs.tasks[x]
		t.last[1], t.isOpen[1] = t.last[0], true
		rs.open[1] = append(rs.open[1], int32(x))
		l := &rs.lists[x].lists[1]
		l.acc, l.lo, l.hi = append(l.acc[:0], rs.lists[x].lists[0].acc...), 0, 0
	}
}

// markList is a task's accesses to a resource, in trace order (their clock
// entries ascend), and [lo, hi) a range of positions all marked.
type markList struct {
	acc    []hbAccess
	lo, hi int
}

// mark marks the accesses of l that do not happen before an event whose
// clock entry for l's task is seen, and reports whether there were any.
// They are a suffix of l; the part of it already marked is skipped.
func (l *markList) mark(buf []bool, seen uint32) bool {
	n := len(l.acc)
	if n == 0 || l.acc[n-1].clk <= seen {
		return false
	}
	y := n - 1
	for y >= 0 && l.acc[y].clk > seen {
		if y < l.hi && y >= l.lo {
			y = l.lo - 1 // marked already; the loop goes on below it
			continue
		}
		buf[l.acc[y].i] = true
		y--
	}
	// [y+1, n) is marked now: every position in it was marked here, or lay
	// in [lo, hi).
	if y+1 <= l.hi {
		l.lo = min(l.lo, y+1)
	} else {
		l.lo = y + 1
	}
	l.hi = n
	return true
}

// full reports whether every access of l is marked.
func (l *markList) full() bool { return l.lo == 0 && l.hi == len(l.acc) }

// manyTasks is the number of tasks on a resource past which it indexes
// them (markResource.find).
const manyTasks = 64

// find returns the index of task t in rs.tasks, or -1.
func (rs *markResource) find(t int32) int {
	if len(rs.tasks) > manyTasks {
		if x, ok := rs.index[t]; ok {
			return x
		}
		return -1
	}
	for x := range rs.tasks {
		if rs.tasks[x].task == t {
			return x
		}
	}
	return -1
}

// access marks event j (task e.Task, clock vc) and the earlier events it
// conflicts with, and records it.
func (r *markRaces) access(buf []bool, j int, e *Event, vc VC) {
	k, ok := r.res.get(e.Res)
	if !ok {
		k = int32(len(r.byRes))
		r.res.put(e.Res, k)
		if int(k) < cap(r.byRes) { // a resource of an earlier walk (ConflictMarker.Reset)
			r.byRes = r.byRes[:k+1]
			r.byRes[k].reuse()
		} else {
			r.byRes = append(r.byRes, markResource{})
		}
	}
	rs := &r.byRes[k]
	read := e.Flag&FlagRead != 0
	kind := 0
	if read {
		kind = 1 // a read races only with writes, a write with every access
		if !rs.read {
			rs.readFirst()
		}
	}
	// The tasks with accesses to mark: mark them, and drop those now full.
	// (A list in open is not full until marked; a task's own latest access
	// is never later than its clock.)
	open, dropped := rs.open[kind], false
	tasks := rs.tasks
	for n := 0; n < len(open); {
		x := open[n]
		t := &tasks[x]
		if seen := vc.At(t.task); t.last[kind] > seen && t.task != e.Task {
			l := &rs.lists[x].lists[kind]
			l.mark(buf, seen)
			buf[j] = true
			if l.full() {
				t.isOpen[kind] = false
				open[n] = open[len(open)-1]
				open, dropped = open[:len(open)-1], true
				continue
			}
		}
		n++
	}
	if dropped {
		rs.open[kind] = open
	}
	// Whether j conflicts with the other tasks, whose accesses are marked.
	// (A task's own latest access is never later than its clock.)
	if !buf[j] {
		for x := range tasks {
			t := &tasks[x]
			if t.last[kind] > vc.At(t.task) && !t.isOpen[kind] && t.task != e.Task {
				buf[j] = true
				break
			}
		}
	}
	mine := rs.find(e.Task)
	if mine < 0 {
		mine = len(rs.tasks)
		rs.tasks = append(rs.tasks, markTask{task: e.Task})
		switch {
		case len(rs.tasks) == manyTasks+1:
			if rs.index == nil {
				rs.index = make(map[int32]int)
			}
			for x := range rs.tasks {
				rs.index[rs.tasks[x].task] = x
			}
		case len(rs.tasks) > manyTasks+1:
			rs.index[e.Task] = mine
		}
		if mine < cap(rs.lists) { // a list of an earlier walk: keep its memory
			rs.lists = rs.lists[:mine+1]
			rs.lists[mine].empty()
		} else {
			rs.lists = append(rs.lists, markTaskAccesses{})
		}
	}
	a := hbAccess{i: j, clk: vc[e.Task]}
	ta := &rs.lists[mine]
	ta.lists[0].acc = append(ta.lists[0].acc, a)
	t := &rs.tasks[mine]
	t.last[0] = a.clk
	rs.reopen(0, mine)
	if !read && rs.read {
		ta.lists[1].acc = append(ta.lists[1].acc, a)
		t.last[1] = a.clk
		rs.reopen(1, mine)
	}
}
