package ctl

import "github.com/morpheus-go/morpheus/internal/core"

// Queue is a FIFO of tasks blocked on one object. Its slice is kept across
// iterations, so a steady state of blocking and waking allocates nothing.
//
// A woken task leaves the queue at once: it is not blocked any more, and what
// it does when it runs (take the lock, or lose it to a newcomer and queue
// again) is its own business.
type Queue struct {
	ts []*core.Task
}

// Len returns the number of queued tasks.
func (q *Queue) Len() int { return len(q.ts) }

// Push queues t at the back.
func (q *Queue) Push(t *core.Task) { q.ts = append(q.ts, t) }

// PushFront queues t at the front: a woken task that lost the object to a
// newcomer keeps its turn, as in Go's sync.Mutex.
func (q *Queue) PushFront(t *core.Task) {
	q.ts = append(q.ts, nil)
	copy(q.ts[1:], q.ts)
	q.ts[0] = t
}

// WakeOne unblocks the first queued task that still waits and removes it and
// the dead tasks before it from the queue. It reports whether it woke one.
func (q *Queue) WakeOne(r *core.Run) bool {
	for len(q.ts) > 0 {
		t := q.ts[0]
		copy(q.ts, q.ts[1:])
		q.ts[len(q.ts)-1] = nil
		q.ts = q.ts[:len(q.ts)-1]
		if Blocked(t) {
			r.Unblock(t)
			return true
		}
	}
	return false
}

// WakeAll unblocks every queued task and empties the queue.
func (q *Queue) WakeAll(r *core.Run) {
	for _, t := range q.ts {
		r.Unblock(t)
	}
	q.Reset()
}

// Remove takes t out of the queue if it is there.
func (q *Queue) Remove(t *core.Task) {
	for i, x := range q.ts {
		if x == t {
			copy(q.ts[i:], q.ts[i+1:])
			q.ts[len(q.ts)-1] = nil
			q.ts = q.ts[:len(q.ts)-1]
			return
		}
	}
}

// Reset empties the queue, keeping its memory.
func (q *Queue) Reset() {
	clear(q.ts)
	q.ts = q.ts[:0]
}

// WakeAllBlocked unblocks every queued task, empties the queue and returns
// how many of them were still waiting (the others died).
func (q *Queue) WakeAllBlocked(r *core.Run) int {
	n := 0
	for _, t := range q.ts {
		if Blocked(t) {
			r.Unblock(t)
			n++
		}
	}
	q.Reset()
	return n
}
