package micro

import (
	"errors"
	"fmt"
)

// Event is one access of a straight-line program.
type Event struct {
	Thread int
	Obj    int  // object accessed, from 0
	Read   bool // a read; otherwise a write
	// After is the index of an event of another thread that must have run
	// before this one is enabled (a wait on a signal), or -1.
	After int
}

// Program is a straight-line concurrent program: its events grouped by
// thread, threads in order, each thread's events in program order.
type Program struct {
	Name    string
	Events  []Event
	Threads int
	start   []int // start[t] is the index of thread t's first event; start[Threads] = len(Events)
}

// NewProgram checks events and returns the program they form.
func NewProgram(name string, events []Event) (*Program, error) {
	p := &Program{Name: name, Events: events}
	if len(events) == 0 {
		return nil, errors.New("micro: a program needs events")
	}
	for i, e := range events {
		if e.Obj < 0 || e.Thread < 0 {
			return nil, fmt.Errorf("micro: event %d: negative thread or object", i)
		}
		switch {
		case i == 0 && e.Thread != 0:
			return nil, errors.New("micro: the first event must be thread 0's")
		case i > 0 && e.Thread != events[i-1].Thread && e.Thread != events[i-1].Thread+1:
			return nil, fmt.Errorf("micro: event %d: threads must be contiguous and in order", i)
		}
		if e.After >= len(events) || e.After >= 0 && events[e.After].Thread == e.Thread {
			return nil, fmt.Errorf("micro: event %d waits for event %d, which is not another thread's", i, e.After)
		}
		if i == 0 || e.Thread != events[i-1].Thread {
			p.start = append(p.start, i)
		}
	}
	p.Threads = len(p.start)
	p.start = append(p.start, len(events))
	if p.Threads > maxThreads {
		return nil, fmt.Errorf("micro: %d threads, at most %d", p.Threads, maxThreads)
	}
	return p, nil
}

// maxThreads bounds the number of threads (4 bits of a packed position each
// in a 64-bit word would allow 16; 8 keeps the enumeration tractable anyway).
const maxThreads = 8

// Len returns the number of events of thread t.
func (p *Program) Len(t int) int { return p.start[t+1] - p.start[t] }

// Index returns the index of event i of thread t.
func (p *Program) Index(t, i int) int { return p.start[t] + i }

// Depends reports whether events a and b of different threads conflict:
// same object, at least one write.
func (p *Program) Depends(a, b int) bool {
	x, y := &p.Events[a], &p.Events[b]
	return x.Thread != y.Thread && x.Obj == y.Obj && !(x.Read && y.Read)
}

// String lists the program's events, thread by thread, as "o2w o0r | ...".
func (p *Program) String() string {
	var b []byte
	for i, e := range p.Events {
		if i > 0 {
			if e.Thread != p.Events[i-1].Thread {
				b = append(b, " |"...)
			}
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "o%d", e.Obj)
		if e.Read {
			b = append(b, 'r')
		} else {
			b = append(b, 'w')
		}
	}
	return string(b)
}
