package strategy_test

import (
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// prog is a hand-made program for driving strategies: prog[t] lists task t's
// ops in program order. Every task's next op is enabled, except an op with
// wait > 0, enabled only once task wait-1 has finished.
type prog [][]tOp

type tOp struct {
	res    uint32
	read   bool
	wait   int // 1 + task that must finish first, or 0
	choose int // > 0: after running, the op makes a choice among this many values
}

// w and r are writes and reads of a resource.
func w(res uint32) tOp { return tOp{res: res} }
func r(res uint32) tOp { return tOp{res: res, read: true} }

// run drives s through one iteration of p and returns the tasks in the order
// they ran, and the values chosen. ok is false if s returned -1. End gets the
// iteration's trace: task t has key t, and its i-th op location i.
func run(s strategy.Strategy, p prog, seed uint64) (order []int32, chosen []int, ok bool) {
	s.Begin(seed)
	tr := &trace.Trace{}
	for t := range p {
		tr.Tasks = append(tr.Tasks, trace.Task{ID: int32(t), Parent: -1, Key: uint64(t)})
	}
	pos := make([]int, len(p))
	var enabled []strategy.Op
	for {
		enabled = enabled[:0]
		for t := range p {
			if pos[t] == len(p[t]) {
				continue
			}
			op := p[t][pos[t]]
			if op.wait > 0 && pos[op.wait-1] < len(p[op.wait-1]) {
				continue
			}
			enabled = append(enabled, strategy.Op{
				Task: int32(t), Kind: trace.KindYield, Res: op.res, Read: op.read,
				Sig: strategy.Sig{Task: uint64(t), Loc: uint64(pos[t])},
			})
		}
		if len(enabled) == 0 {
			break
		}
		i := s.Next(enabled)
		if i < 0 {
			return order, chosen, false
		}
		t := enabled[i].Task
		order = append(order, t)
		e := trace.Event{Task: t, Obj: -1, Kind: trace.KindYield, Res: enabled[i].Res, Loc: uint64(pos[t])}
		if enabled[i].Read {
			e.Flag = trace.FlagRead
		}
		tr.Events = append(tr.Events, e)
		if n := p[t][pos[t]].choose; n > 0 {
			v := s.Choose(n)
			if v < 0 {
				return order, chosen, false
			}
			chosen = append(chosen, v)
		}
		pos[t]++
	}
	s.End(tr)
	return order, chosen, true
}

// freq runs s n times with seeds 1..n and returns how often pred held.
func freq(s strategy.Strategy, p prog, n int, pred func(order []int32) bool) float64 {
	hits := 0
	for seed := 1; seed <= n; seed++ {
		order, _, _ := run(s, p, uint64(seed))
		if pred(order) {
			hits++
		}
	}
	return float64(hits) / float64(n)
}

// ops returns n copies of op.
func ops(n int, op tOp) []tOp {
	s := make([]tOp, n)
	for i := range s {
		s[i] = op
	}
	return s
}

// firstAt returns the position at which task t first ran, or -1.
func firstAt(order []int32, t int32) int {
	for i, x := range order {
		if x == t {
			return i
		}
	}
	return -1
}
