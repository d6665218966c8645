package sctplain

import (
	"sync"
	"sync/atomic"
)

// StealQueue is the work-stealing queue of the CHESS samples (the THE
// protocol of Cilk): the owner pushes and pops at the tail without a lock,
// thieves steal at the head under the lock, and a steal first claims the
// head slot (head = h + 1) and only then reads it. head, tail and the slots
// are shared without a lock; arr and mask change only in the owner's
// syncPush, under the lock, and thieves read them only under the lock.
//
// Bug (Fixed false): the push fast path admits a full array (t <= head+mask
// instead of t < head+mask). With a thief's claim visible in head, a push
// into the full array writes the slot the thief claimed but has not read
// yet: the thief takes the new item, the old one is lost. Interlocked makes
// the speculative updates of head and tail exchanges (atomic.SwapInt64), as
// in IWSQ, rather than stores.
type StealQueue struct {
	head, tail  int64
	arr         []int
	mask        int64
	lock        sync.Mutex
	Fixed       bool
	Interlocked bool
}

// NewStealQueue returns an empty queue of the given capacity, a power of 2.
func NewStealQueue(capacity int, fixed, interlocked bool) *StealQueue {
	return &StealQueue{arr: make([]int, capacity), mask: int64(capacity - 1), Fixed: fixed, Interlocked: interlocked}
}

// set writes a speculative index: a store, or in IWSQ an exchange.
func (q *StealQueue) set(p *int64, v int64) {
	if q.Interlocked {
		atomic.SwapInt64(p, v)
		return
	}
	*p = v
}

// Push is the owner's push at the tail.
func (q *StealQueue) Push(x int) {
	t := q.tail
	room := t < q.head+q.mask
	if !q.Fixed {
		room = t <= q.head+q.mask // admits a full array
	}
	if room {
		q.arr[t&q.mask] = x
		q.tail = t + 1
		return
	}
	q.syncPush(x)
}

// syncPush pushes under the lock, first growing the array if it is (about
// to be) full.
func (q *StealQueue) syncPush(x int) {
	q.lock.Lock()
	defer q.lock.Unlock()
	h := q.head
	count := q.tail - h
	h &= q.mask
	q.head = h
	q.tail = h + count
	if count >= q.mask {
		arr := make([]int, 2*len(q.arr))
		for i := range count {
			arr[i] = q.arr[(i+h)&q.mask]
		}
		q.arr, q.mask = arr, int64(len(arr)-1)
		q.head = 0
		q.tail = count
	}
	t := q.tail
	q.arr[t&q.mask] = x
	q.tail = t + 1
}

// Pop is the owner's pop at the tail: it claims the tail slot, and falls
// back to syncPop if a thief may want the same item.
func (q *StealQueue) Pop() (int, bool) {
	t := q.tail - 1
	q.set(&q.tail, t)
	if q.head <= t {
		return q.arr[t&q.mask], true
	}
	q.tail = t + 1
	return q.syncPop()
}

func (q *StealQueue) syncPop() (int, bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	t := q.tail - 1
	q.tail = t
	x, ok := 0, false
	if q.head <= t {
		x, ok = q.arr[t&q.mask], true
	} else {
		q.tail = t + 1
	}
	if q.head > t {
		q.head = 0
		q.tail = 0
		ok = false
	}
	return x, ok
}

// Steal is a thief's steal at the head: claim, check, read.
func (q *StealQueue) Steal() (int, bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	h := q.head
	q.set(&q.head, h+1)
	if h < q.tail {
		return q.arr[h&q.mask], true
	}
	q.head = h
	return 0, false
}
