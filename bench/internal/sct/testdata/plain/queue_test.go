package sctplain

import (
	"sync"
	"testing"
)

// boundedQueue is a ring of 20 values; its users hold a mutex.
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

// queue: a producer enqueues a first value, then in each of 19 rounds, if
// the enqueue flag is up, one more (lowering it and raising the dequeue
// flag); the consumer, in each of 20 rounds, if the dequeue flag is up,
// dequeues a value and expects the one stored for its round number. All
// under one mutex. Values are stored, and looked up, by round number: lost
// rounds put the two out of step. Fixed: both sides index by the number of
// values they actually moved.
func queueCase(t *testing.T, fixed bool) {
	const size = 20
	var m sync.Mutex
	// Guarded by m.
	var q boundedQueue
	var stored [size]int
	enqueue, dequeue := true, false
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.Lock()
		q.push(100)
		stored[0] = 100
		if q.empty() {
			t.Errorf("queue: empty after an enqueue")
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
	}()
	go func() {
		defer wg.Done()
		n := 0 // values dequeued
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
					t.Errorf("queue: dequeued %d, expected %d", v, want)
				}
			}
			m.Unlock()
		}
	}()
	wg.Wait()
}

func TestQueue(t *testing.T)      { queueCase(t, false) }
func TestQueueFixed(t *testing.T) { queueCase(t, true) }
