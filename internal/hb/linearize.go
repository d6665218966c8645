package hb

import "github.com/morpheus-go/morpheus/trace"

// maxLinearize bounds the steps Linearize reorders: its cost grows with the
// steps times the tasks squared.
const maxLinearize = 50_000

// Linearize returns the tasks of t's steps in another order of the same
// partial order (see PartialOrder): one that keeps running a task while its
// next step may run, and otherwise switches to the lowest-numbered task whose
// next step may — the linearization with few context switches that shrinking
// offers as a simpler way to show the same behaviour (Jalbert and Sen's trace
// simplification). A step may run once the steps that happen before it
// (hb.go) and the earlier steps it conflicts with have run.
//
// It returns nil for a trace of more than 50,000 steps, or one whose steps
// cannot all be ordered (a malformed trace).
func Linearize(t *trace.Trace) []int32 {
	type step struct {
		task  int32
		vc    VC
		after []int // indices (into steps) of earlier conflicting steps
	}
	var steps []step
	index := make(map[int]int) // event index -> step index, for events with a resource
	tooLong := false
	walkConflicts(t, func(j int, vc VC, earlier []int) bool {
		if len(steps) >= maxLinearize {
			tooLong = true
			return false
		}
		s := step{task: t.Events[j].Task, vc: vc.Clone()}
		for _, i := range earlier {
			s.after = append(s.after, index[i])
		}
		if t.Events[j].Res != 0 {
			index[j] = len(steps)
		}
		steps = append(steps, s)
		return true
	})
	if tooLong {
		return nil
	}
	n := len(t.Tasks) // a malformed trace may name more tasks
	for _, s := range steps {
		n = max(n, int(s.task)+1)
	}
	queue := make([][]int, n) // each task's steps, in order
	for i, s := range steps {
		queue[s.task] = append(queue[s.task], i)
	}
	next := make([]int, n) // position in queue: also the steps run per task
	done := make([]bool, len(steps))
	ready := func(u int) bool {
		if next[u] >= len(queue[u]) {
			return false
		}
		s := &steps[queue[u][next[u]]]
		for v, c := range s.vc {
			if v != u && uint32(next[v]) < c {
				return false
			}
		}
		for _, i := range s.after {
			if !done[i] {
				return false
			}
		}
		return true
	}
	out := make([]int32, 0, len(steps))
	cur := -1
	for len(out) < len(steps) {
		if cur < 0 || !ready(cur) {
			cur = -1
			for u := range n {
				if ready(u) {
					cur = u
					break
				}
			}
			if cur < 0 {
				return nil
			}
		}
		done[queue[cur][next[cur]]] = true
		next[cur]++
		out = append(out, int32(cur))
	}
	return out
}
