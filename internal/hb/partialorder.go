package hb

import (
	"slices"
	"sync"

	"github.com/morpheus-go/morpheus/trace"
)

// PartialOrder returns a 64-bit identity of the partial order a trace ran: its
// Mazurkiewicz trace. Two traces that differ only by swapping adjacent
// independent steps — of different tasks, not ordered by happens-before and
// not in conflict — get the same value; traces whose orders differ get
// different values (up to hash collisions). Counting the distinct values over
// the iterations of a run measures how many really different behaviours a
// strategy explored, where counting schedules would also count reorderings
// that cannot matter.
//
// The order is the happens-before relation of hb.go and hb_sync.go plus, for
// every conflict (see ConflictPairs), the order in which the trace ran the two
// conflicting steps. Steps are named by what survives a reordering: their
// task's stable Key and their index among that task's steps; task IDs,
// resource numbers and message ids are numbered in execution order and are
// left out. A step's label is its kind, its flags and, for a choice, the
// value chosen. The identity combines, for every step, its name, its label
// and the names of the steps it directly depends on: the previous step of
// its task, each other task's latest step that happens before it when that
// is news to its task, and the earlier steps it conflicts with. Every
// ingredient is a function of the partial order, and the order is their
// transitive closure.
//
// The cost is one happens-before walk: about the number of events times the
// number of tasks, plus the conflicts.
// Its buffers are kept from one call to the next (a worker identifies the
// partial order of every iteration); calls may run in parallel.
func PartialOrder(t *trace.Trace) uint64 {
	o := orderers.Get().(*partialOrderer)
	defer orderers.Put(o)
	return o.partialOrder(t)
}

// orderers keeps the buffers of PartialOrder's computations.
var orderers = sync.Pool{New: func() any { return new(partialOrderer) }}

// partialOrderer computes PartialOrder and keeps its buffers from one trace
// to the next. Its zero value is ready; it is used by one goroutine.
type partialOrderer struct {
	w     syncWalker
	r     hbRaces
	keys  []uint64
	seen  []VC
	name  []uint64
	found []int
	kill  killWatch
}

// reset prepares o for t, keeping what its buffers hold.
func (o *partialOrderer) reset(t *trace.Trace) {
	w := &o.w
	w.spare = w.msgs.drain(w.spare)
	n := len(t.Tasks)
	for i := range t.Events {
		if e := &t.Events[i]; int(e.Task) >= n {
			n = int(e.Task) + 1
		}
	}
	for len(w.clock) < n {
		w.clock = append(w.clock, nil)
	}
	w.clock = w.clock[:n]
	for i := range w.clock {
		w.clock[i] = w.clock[i][:0]
	}
	w.sync.reset()
	if o.r.res == nil {
		o.r.res = make(map[uint32]int32)
	}
	clear(o.r.res)
	o.r.byRes = o.r.byRes[:0]
	o.keys = o.keys[:0]
	for i := range n {
		k := uint64(i) // a task missing from the table: its number
		if i < len(t.Tasks) {
			k = t.Tasks[i].Key
		}
		o.keys = append(o.keys, k)
	}
	for len(o.seen) < n {
		o.seen = append(o.seen, nil)
	}
	o.seen = o.seen[:n]
	for i := range o.seen {
		o.seen[i] = o.seen[i][:0]
	}
	if cap(o.name) < len(t.Events) {
		o.name = make([]uint64, len(t.Events))
	}
	o.name = o.name[:len(t.Events)]
	o.kill.reset(t, n)
}

// partialOrder returns PartialOrder(t).
func (o *partialOrderer) partialOrder(t *trace.Trace) uint64 {
	o.reset(t)
	w, r, keys, seen, name := &o.w, &o.r, o.keys, o.seen, o.name
	found := o.found
	defer func() { o.found = found }()
	var sum uint64
	for j := range t.Events {
		vc := w.step(t, j)
		if vc == nil {
			continue
		}
		e := &t.Events[j]
		own := vc.At(e.Task)
		me := stepName(keys[e.Task], own)
		h := poMix(me ^ poMix(uint64(e.Kind)<<8|uint64(e.Flag)))
		if e.Kind == trace.KindChoose {
			h = poMix(h ^ uint64(e.Val))
		}
		if own > 1 {
			h += poMix(stepName(keys[e.Task], own-1) ^ 0x70)
		}
		prev := seen[e.Task]
		for u, c := range vc {
			if int32(u) != e.Task && c > prev.At(int32(u)) {
				h += poMix(stepName(keys[u], c) ^ 0x68)
			}
		}
		seen[e.Task] = append(prev[:0], vc...)
		if e.Res != 0 {
			found = r.access(found[:0], j, e, w.raceClock(vc))
			for _, i := range found {
				h += poMix(name[i] ^ 0x63)
			}
			name[j] = me
		}
		if i := o.kill.race(e, vc); i >= 0 && !(e.Res != 0 && slices.Contains(found, i)) {
			h += poMix(name[i] ^ 0x63) // an observable step has a resource, so a name
		}
		o.kill.after(j, e, vc)
		sum += poMix(h)
	}
	return sum
}

// stepName names the k-th step (from 1) of the task with the given key.
func stepName(key uint64, k uint32) uint64 { return poMix(key ^ poMix(uint64(k))) }

// poMix is a 64-bit finalizer (SplitMix64's).
func poMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
