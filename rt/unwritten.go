package rt

// Memory no task has written in the schedule. A read of it returns what
// the location held when the schedule began (a cache filled by earlier
// schedules or tests, a table built at initialisation), whatever order the
// tasks run in until some task writes it: every earlier write of the
// location is the process's, before the schedule, or of a task that ran
// alone and was joined, ordered before every task that runs now. So such a
// read is run as an access to memory of the task's own is (owned.go): the
// first after each op of the task is a step, the next ones until its next
// op are no ops, noted for the data-race detector at the task's last step.
// What the strategy can no longer do is run another task between two of
// them; a task that writes the location there instead writes it after the
// stretch, or before its first step, and if no synchronisation orders
// that write after the reads, it races with them, which the detector
// reports in either order.
//
// The reads of such memory need not be the same in a replay's process.
// go-msgpack looks a type up in a cache sorted by the address of its
// reflect.Type, by binary search: how many halvings the search takes
// depends on which types earlier tests cached, and on their addresses,
// which differ from process to process for the types reflect makes at run
// time (the heap's addresses follow the process's whole history of
// allocations, morpheus's own included). As steps, the search's reads made
// a trace recorded late in a process diverge in the replay's. The clock's
// drift does not count them either (unlike memory of the task's own), so
// that a longer search in the replay's process does not move the time.
// Once a task writes the location, with a plain or an atomic access, its
// accesses are ops again for the rest of the schedule; with races not
// checked (-allowraces) they are ops throughout, as for memory of a task's
// own.

// unwrittenRead reports whether an access to l, a write if write, is a
// read of memory no task has written in the schedule.
func (l *memLoc) unwrittenRead(write bool) bool { return !write && !l.written }
