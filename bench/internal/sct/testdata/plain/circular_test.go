package sctplain

import (
	"sync"
	"testing"
)

// circular_buffer: a producer and a consumer each run 7 rounds; in a round,
// under the mutex, the producer inserts its round number if the send flag
// is up (then lowers it and raises receive), and the consumer, if receive is
// up, removes a value and expects its own round number. A round in which a
// flag was down is lost, and the two fall out of step. Fixed: each side
// counts the values it actually moved.
func circularBuffer(t *testing.T, fixed bool) {
	const size, rounds = 10, 7
	var m sync.Mutex
	// Guarded by m.
	var buf [size]int
	first, next := 0, 0
	send, receive := true, false
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		sent := 0
		for i := range rounds {
			m.Lock()
			if send {
				v := i
				if fixed {
					v = sent
				}
				buf[next] = v
				next = (next + 1) % size
				sent++
				send, receive = false, true
			}
			m.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		got := 0
		for i := range rounds {
			m.Lock()
			if receive {
				v := buf[first]
				first = (first + 1) % size
				want := i
				if fixed {
					want = got
				}
				got++
				receive, send = false, true
				if v != want {
					t.Errorf("circular_buffer: removed %d in round %d", v, want)
				}
			}
			m.Unlock()
		}
	}()
	wg.Wait()
}

func TestCircularBuffer(t *testing.T)      { circularBuffer(t, false) }
func TestCircularBufferFixed(t *testing.T) { circularBuffer(t, true) }
