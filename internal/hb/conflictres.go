package hb

// markResource is one resource's accesses by task. What a scan of the
// tasks reads (the task, the clock entries of its latest access and latest
// write, whether its lists have unmarked accesses) is kept together, one
// markTask each, so that the scan reads memory in order.
//
// An access looks at every other task of the resource: it conflicts with
// those whose latest access (write, for a read) does not happen before it,
// and marks their accesses that are not marked yet. While the tasks are few
// (fewTasks) that is one pass over them all (scan). Past that, the tasks
// whose list (of all accesses, of writes) has unmarked accesses are listed
// in open, so that an access that conflicts with many tasks whose accesses
// are all marked already visits only those with something left to mark
// (scanOpen); the lists are built when the tasks outgrow fewTasks. An
// access that happens after the latest one, itself after all the others,
// needs no scan at all (ordered).
//
// Until the resource is first read every access is a write, and the list of
// writes would be a copy of the list of all accesses that nothing looks at
// (only a read checks the writes): the writes' lists, entries and open list
// are kept only once read is set, and the first read builds them from the
// lists of all accesses (see readFirst).
type markResource struct {
	tasks []markTask
	index []uint32 // by task id: its index in tasks plus one, 0 for none, once they are many (see find)
	lists []markTaskAccesses
	open  [2][]int32 // [0] all, [1] writes: tasks (indices) with unmarked accesses
	read  bool       // the resource has been read: [1] of lists, open and markTask kept
	// latest is the latest access, as the index of its task in tasks and
	// its clock entry; latestAfter says that it happens after every
	// earlier access (see ordered). They are kept only while the tasks
	// are many (few is false), where they spare scanOpen's look at every
	// task.
	latest      int32
	latestClk   uint32
	latestAfter bool
	at          lastAt // the tasks' latest accesses by task, while they are many
}

// ordered reports whether an access by task me with clock vc (its race
// check's) happens after every earlier access of rs, by what
// rs knows of the latest one without a scan: it does if the latest
// happens after all the others and before this one (vc knows it, or it is
// me's). Then it conflicts with none, and is the latest that happens after
// all the others in turn. (vc knows the latest access, so it knows all
// the latest's clock knew: the clock of an acquire's race check, taken
// before the acquire's join, is still the clock of everything before it.)
func (rs *markResource) ordered(me int32, vc VC) bool {
	if !rs.latestAfter {
		return false
	}
	t := rs.tasks[rs.latest].task
	return t == me || vc.At(t) >= rs.latestClk
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
		if !rs.few() {
			rs.open[k] = append(rs.open[k], int32(x))
		}
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
		if !rs.few() {
			rs.open[1] = append(rs.open[1], int32(x))
		}
		l := &rs.lists[x].lists[1]
		l.acc, l.lo, l.hi = append(l.acc[:0], rs.lists[x].lists[0].acc...), 0, 0
	}
	if !rs.few() {
		rs.at[1] = append(rs.at[1][:0], rs.at[0]...)
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
		if int(t) < len(rs.index) {
			return int(rs.index[t]) - 1
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

// fewTasks is the number of tasks on a resource up to which an access
// scans them all rather than keeping lists of the open ones.
const fewTasks = 16

// few reports whether rs has few enough tasks to scan them all.
func (rs *markResource) few() bool { return len(rs.tasks) <= fewTasks }

// scan marks, for an access j by task me whose clock is vc, the tasks' accesses
// it conflicts with, in one pass over the tasks, and returns me's index in
// rs.tasks, or -1. Its kind is 0 for a write (which races with every
// access), 1 for a read (which races with writes).
func (rs *markResource) scan(buf []bool, j int, me int32, kind int, vc VC) int {
	mine := -1
	kind &= 1
	tasks := rs.tasks
	for x := range tasks {
		t := &tasks[x]
		if t.task == me {
			mine = x // a task's own latest access is never later than its clock
			continue
		}
		var seen uint32 // vc.At(t.task), with one test (task ids are not negative)
		if i := uint(t.task); i < uint(len(vc)) {
			seen = vc[i]
		}
		if t.last[kind] <= seen {
			continue
		}
		buf[j] = true
		if t.isOpen[kind] {
			l := &rs.lists[x].lists[kind]
			l.mark(buf, seen)
			t.isOpen[kind] = !l.full()
		}
	}
	return mine
}

// scanOpen is scan for many tasks: it visits the open tasks, marks them and
// drops those now full, and then, unless j is marked already, looks for a
// task it conflicts with among the others, in the tasks' latest accesses
// by task (lastAt).
func (rs *markResource) scanOpen(buf []bool, j int, me int32, kind int, vc VC) {
	kind &= 1
	open, dropped := rs.open[kind], false
	tasks := rs.tasks
	for n := 0; n < len(open); {
		x := open[n]
		t := &tasks[x]
		// (A list in open is not full until marked; a task's own latest
		// access is never later than its clock.)
		if seen := vc.At(t.task); t.last[kind] > seen && t.task != me {
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
	// No open task conflicts with j (else j is marked): j conflicts with
	// another if it does not know some task's latest access. Its own and
	// the open tasks' it knows, so they may be asked too.
	if !buf[j] && unknown(rs.at[kind], vc) {
		buf[j] = true
	}
}

// indexAs records that task t is rs.tasks[x].
func (rs *markResource) indexAs(t int32, x int) {
	if int(t) >= len(rs.index) {
		rs.index = grownTo(rs.index, int(t)+1)
	}
	rs.index[t] = uint32(x + 1)
}

// add adds task t to rs, with no accesses yet, and returns its index.
func (rs *markResource) add(t int32) int {
	x := len(rs.tasks)
	rs.tasks = append(rs.tasks, markTask{task: t})
	switch {
	case len(rs.tasks) == fewTasks+1: // list the open tasks from now on
		for k := range rs.open {
			rs.open[k] = rs.open[k][:0]
			for y := range rs.tasks {
				if rs.tasks[y].isOpen[k] {
					rs.open[k] = append(rs.open[k], int32(y))
				}
			}
		}
		rs.at.build(rs)
	case len(rs.tasks) == manyTasks+1:
		rs.index = rs.index[:0]
		for y := range rs.tasks {
			rs.indexAs(rs.tasks[y].task, y)
		}
	case len(rs.tasks) > manyTasks+1:
		rs.indexAs(t, x)
	}
	if x < cap(rs.lists) { // a list of an earlier walk: keep its memory
		rs.lists = rs.lists[:x+1]
		rs.lists[x].empty()
	} else {
		rs.lists = append(rs.lists, markTaskAccesses{})
	}
	return x
}
