package sctplain

import (
	"errors"
	"sync"
	"testing"
)

var errUnderflow = errors.New("underflow")

// stack is a bounded stack; its users hold a mutex.
type stack struct {
	arr [10]int
	top int
}

func (s *stack) push(v int) error {
	if s.top == len(s.arr) {
		return errors.New("overflow")
	}
	s.arr[s.top] = v
	s.top++
	return nil
}

func (s *stack) pop() (int, error) {
	if s.top == 0 {
		return 0, errUnderflow
	}
	s.top--
	return s.arr[s.top], nil
}

// stack: a pusher pushes 10 values, raising a flag after each push; a popper,
// in each of its 10 rounds, pops if the flag is up, and the flag is never
// lowered: when the popper gets ahead of the pusher the stack underflows.
// All under one mutex. Fixed: the popper pops only from a non-empty stack.
func stackCase(t *testing.T, fixed bool) {
	var m sync.Mutex
	// Guarded by m.
	var s stack
	flag := false
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range len(s.arr) {
			m.Lock()
			if err := s.push(i); err != nil {
				t.Errorf("stack: %v", err)
			}
			flag = true
			m.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for range len(s.arr) {
			m.Lock()
			if flag && (!fixed || s.top > 0) {
				if _, err := s.pop(); err != nil {
					t.Errorf("stack: %v", err)
				}
			}
			m.Unlock()
		}
	}()
	wg.Wait()
}

func TestStack(t *testing.T)      { stackCase(t, false) }
func TestStackFixed(t *testing.T) { stackCase(t, true) }
