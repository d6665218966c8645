package micro

import (
	"fmt"

	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// Exec runs a program under a strategy, one iteration at a time: the tiny
// abstract executor of the micro benchmark. Thread t is task t; event i of a
// thread is an op with resource object+1, a read or a write, and signature
// {t, i}. An Exec is not safe for concurrent use; make one per goroutine.
type Exec struct {
	p       *Program
	f       *form
	dummy   bool
	ops     []strategy.Op // per event
	starts  []strategy.Op // per thread, the start op
	enabled []strategy.Op
	event   []int // per enabled op: its event, or -1 for a start op
	pos     []int
	started []bool
	order   []int
}

// NewExec returns an executor of p. With dummyStart, every thread first has
// a start op that touches nothing, as the runtime gives every task (the
// thesis adds these for PCT only, since they change nothing for POS and
// RAPOS but the scale of random walk). Strategies run start ops at once
// (strategy.Local), so they are no decision of theirs.
func NewExec(p *Program, dummyStart bool) (*Exec, error) {
	f, err := newForm(p)
	if err != nil {
		return nil, err
	}
	x := &Exec{p: p, f: f, dummy: dummyStart, pos: make([]int, p.Threads), started: make([]bool, p.Threads)}
	for i, e := range p.Events {
		x.ops = append(x.ops, strategy.Op{
			Task: int32(e.Thread), Kind: trace.KindYield, Res: uint32(e.Obj + 1), Read: e.Read,
			Sig: strategy.Sig{Task: uint64(e.Thread), Loc: uint64(i - p.start[e.Thread] + 1)},
		})
	}
	for t := range p.Threads {
		x.starts = append(x.starts, strategy.Op{Task: int32(t), Kind: trace.KindStart, Sig: strategy.Sig{Task: uint64(t)}})
	}
	return x, nil
}

// Run runs one iteration of s seeded with seed and returns the canonical form
// of the schedule it chose. It fails if s gives up or the program deadlocks.
func (x *Exec) Run(s strategy.Strategy, seed uint64) (uint64, error) {
	p := x.p
	s.Begin(seed)
	clear(x.pos)
	clear(x.started)
	x.order = x.order[:0]
	var mask, decided uint64
	for {
		x.enabled, x.event = x.enabled[:0], x.event[:0]
		for t := range p.Threads {
			if x.dummy && !x.started[t] {
				x.enabled = append(x.enabled, x.starts[t])
				x.event = append(x.event, -1)
			} else if e := next(p, x.pos, t); e >= 0 {
				x.enabled = append(x.enabled, x.ops[e])
				x.event = append(x.event, e)
			}
		}
		if len(x.enabled) == 0 {
			break
		}
		i := s.Next(x.enabled)
		if i < 0 || i >= len(x.enabled) {
			return 0, fmt.Errorf("micro: %s returned %d for %d enabled ops", s.Name(), i, len(x.enabled))
		}
		t := x.enabled[i].Task
		e := x.event[i]
		if e < 0 {
			x.started[t] = true
			continue
		}
		mask, decided = x.f.step(mask, decided, e)
		x.pos[t]++
		x.order = append(x.order, e)
	}
	s.End(nil)
	if len(x.order) < len(p.Events) {
		return 0, fmt.Errorf("micro: program %s deadlocked", p.Name)
	}
	return mask, nil
}

// Order returns the events of the last run in the order they ran; the slice
// is reused by the next run.
func (x *Exec) Order() []int { return x.order }
