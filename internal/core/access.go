package core

import "github.com/morpheus-go/morpheus/trace"

// Access runs the op of a plain-memory access of t to the location res
// (a resource the caller keeps per address): a read op, or a write op. The
// step is a scheduling point like any other, so strategies interleave
// goroutines at plain memory, and conflict analysis and POS* see two reads
// commute.
func (r *Run) Access(t *Task, res uint32, write bool, pc uintptr) {
	kind := trace.KindMemRead
	if write {
		kind = trace.KindMemWrite
	}
	r.Do(t, Op{Kind: kind, Res: res, Read: !write, Obj: -1, PC: pc})
}
