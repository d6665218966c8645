package sct

import (
	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// queue: a producer enqueues a first value, then in each of 19 rounds, if the
// enqueue flag is up, one more (lowering it and raising the dequeue flag);
// the consumer, in each of 20 rounds, if the dequeue flag is up, dequeues a
// value and asserts it is the one stored for its round number. All under one
// mutex. Values are stored, and looked up, by round number: lost rounds put
// the two out of step. Fixed: both sides index by the number of values they
// actually moved.
func queueCase() Case {
	prog := func(fixed bool) func(*morpheus.Env) {
		return func(e *morpheus.Env) {
			const size = 20
			var m csync.Mutex
			// Guarded by m.
			var q boundedQueue
			var stored [size]int
			enqueue, dequeue := true, false
			ts := []*csync.Chan[struct{}]{
				thread(func() {
					m.Lock()
					q.push(100)
					stored[0] = 100
					if q.empty() {
						e.Fatalf("queue: empty after an enqueue")
					}
					m.Unlock()
					k := 1 // values enqueued
					for i := range size - 1 {
						m.Lock()
						if enqueue {
							v := 101 + i
							q.push(v)
							at := i + 1
							if fixed {
								at = k
							}
							stored[at] = v
							k++
							enqueue, dequeue = false, true
						}
						m.Unlock()
					}
				}),
				thread(func() {
					n := 0
					for i := range size {
						m.Lock()
						if dequeue {
							v := q.pop()
							want := stored[i]
							if fixed {
								want = stored[n]
							}
							n++
							dequeue, enqueue = false, true
							if v != want {
								e.Fatalf("queue: dequeued %d, expected %d", v, want)
							}
						}
						m.Unlock()
					}
				}),
			}
			join(ts)
		}
	}
	return Case{Name: "queue", Threads: 3, Steps: 83, Buggy: prog(false), Fixed: prog(true),
		Kind: "assertion", Prefix: "queue:"}
}

// boundedQueue is the ring the queue case shares (plain memory: its users
// hold the mutex).
type boundedQueue struct {
	elems      [20]int
	head, tail int
	n          int
}

func (q *boundedQueue) empty() bool { return q.n == 0 }

func (q *boundedQueue) push(v int) {
	q.elems[q.tail] = v
	q.tail = (q.tail + 1) % len(q.elems)
	q.n++
}

func (q *boundedQueue) pop() int {
	v := q.elems[q.head]
	q.head = (q.head + 1) % len(q.elems)
	q.n--
	return v
}
