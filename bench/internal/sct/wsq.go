package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// WSQ and IWSQ: the work-stealing queue of the CHESS samples (the THE
// protocol of Cilk): the owner pushes and pops at the tail without a lock,
// thieves steal at the head under a lock, and a steal first claims the head
// slot (head = h + 1) and only then reads it. The owner (main) pushes 4 items
// into an array of capacity 2 and pops until the queue is empty; 2 thieves
// steal twice each; at the end every item must have been taken exactly once.
//
// Bug: the push fast path admits a full array (t ≤ head + mask instead of
// t < head + mask). With a thief's claim visible in head, a push into the
// full array writes the slot the thief claimed but has not read: the thief
// takes the new item, the old one is lost and the new one taken twice.
// IWSQ is the same queue with the speculative updates of head and tail made
// by interlocked exchanges (Swap) rather than stores.
func wsq(name string, interlocked bool, steps int) Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			const items = 4
			q := newStealQueue(2, fixed, interlocked)
			var taken [items + 1]int
			var stolen [2][]int // per thief, read after the join
			var ts []*csync.Chan[struct{}]
			for k := range stolen {
				ts = append(ts, thread(func() {
					for range 2 {
						if x, ok := q.steal(); ok {
							stolen[k] = append(stolen[k], x)
						}
					}
				}))
			}
			for i := 1; i <= items; i++ {
				q.push(i)
			}
			for {
				x, ok := q.pop()
				if !ok {
					break
				}
				taken[x]++
			}
			join(ts)
			for _, s := range stolen {
				for _, x := range s {
					taken[x]++
				}
			}
			for i := 1; i <= items; i++ {
				e.Assert(taken[i] == 1, "wsq: item %d taken %d times", i, taken[i])
			}
		}
	}
	return Case{Name: name, Threads: 3, Steps: steps, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "wsq:"}
}

// stealQueue is the work-stealing queue. head, tail and the slots are shared
// variables; arr and mask change only in the owner's syncPush, under the
// lock, and thieves read them only under the lock.
type stealQueue struct {
	head, tail  csync.Int
	arr         []csync.Int
	mask        int
	lock        csync.Mutex
	fixed       bool
	interlocked bool
}

func newStealQueue(capacity int, fixed, interlocked bool) *stealQueue {
	return &stealQueue{arr: make([]csync.Int, capacity), mask: capacity - 1, fixed: fixed, interlocked: interlocked}
}

// set writes a speculative index: a store, or in IWSQ an exchange.
func (q *stealQueue) set(x *csync.Int, v int) {
	if q.interlocked {
		x.Swap(v)
		return
	}
	x.Store(v)
}

// push is the owner's push at the tail.
func (q *stealQueue) push(x int) {
	t := q.tail.Load()
	h := q.head.Load()
	room := t < h+q.mask
	if !q.fixed {
		room = t <= h+q.mask // admits a full array
	}
	if room {
		q.arr[t&q.mask].Store(x)
		q.tail.Store(t + 1)
		return
	}
	q.syncPush(x)
}

// syncPush pushes under the lock, first growing the array if it is (about to
// be) full.
func (q *stealQueue) syncPush(x int) {
	q.lock.Lock()
	h := q.head.Load()
	count := q.tail.Load() - h
	h &= q.mask
	q.head.Store(h)
	q.tail.Store(h + count)
	if count >= q.mask {
		arr := make([]csync.Int, 2*len(q.arr))
		for i := range count {
			arr[i].Store(q.arr[(i+h)&q.mask].Load())
		}
		q.arr, q.mask = arr, len(arr)-1
		q.head.Store(0)
		q.tail.Store(count)
	}
	t := q.tail.Load()
	q.arr[t&q.mask].Store(x)
	q.tail.Store(t + 1)
	q.lock.Unlock()
}

// pop is the owner's pop at the tail: it claims the tail slot, and falls
// back to syncPop if a thief may want the same item.
func (q *stealQueue) pop() (int, bool) {
	t := q.tail.Load() - 1
	q.set(&q.tail, t)
	if q.head.Load() <= t {
		return q.arr[t&q.mask].Load(), true
	}
	q.tail.Store(t + 1)
	return q.syncPop()
}

func (q *stealQueue) syncPop() (int, bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	t := q.tail.Load() - 1
	q.tail.Store(t)
	x, ok := 0, false
	if q.head.Load() <= t {
		x, ok = q.arr[t&q.mask].Load(), true
	} else {
		q.tail.Store(t + 1)
	}
	if q.head.Load() > t {
		q.head.Store(0)
		q.tail.Store(0)
		ok = false
	}
	return x, ok
}

// steal is a thief's steal at the head: claim, check, read.
func (q *stealQueue) steal() (int, bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	h := q.head.Load()
	q.set(&q.head, h+1)
	if h < q.tail.Load() {
		return q.arr[h&q.mask].Load(), true
	}
	q.head.Store(h)
	return 0, false
}
