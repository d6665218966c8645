package strategy

import (
	"fmt"
	"strconv"

	"github.com/morpheus-go/morpheus/trace"
)

// DFS enumerates schedules systematically, depth first, one per iteration:
// every Begin starts the next schedule not yet explored, and after the End of
// the last one Exhausted reports true. Both decisions are enumerated: which
// enabled op runs (Next) and which value a controlled choice takes (Choose).
//
// With a preemption bound B ("dfs:B"), only schedules with at most B
// preemptions are explored; a step is a preemption when it runs another task
// while the task that ran the step before still has an enabled op. The
// non-preemptive alternative is always explored first.
//
// DFS remembers the decisions of the schedule it explores and replays them as
// the prefix of the next one, so the program must be deterministic given the
// decisions: when an iteration presents a different number of alternatives at a
// replayed step, Next (or Choose) returns -1 and Divergence explains where.
// The seed given to Begin is not used, and an iteration's schedule depends on
// the iterations before it, so one DFS cannot be shared by parallel workers.
type DFS struct {
	localFirst
	bound   int // preemption bound, or -1
	stack   []dfsNode
	depth   int   // decisions taken in the current iteration
	prev    int32 // task that ran the last step, or -1
	preempt int   // preemptions in the current iteration
	done    bool
	div     string
}

// dfsNode is one decision: n alternatives, of which i is being explored.
type dfsNode struct {
	n, i   int32
	choose bool // a Choose decision rather than a Next one
}

// NewDFS returns depth-first search without a bound.
func NewDFS() *DFS { return &DFS{bound: -1} }

// NewBoundedDFS returns depth-first search over the schedules with at most
// bound preemptions.
func NewBoundedDFS(bound int) *DFS { return &DFS{bound: max(bound, 0)} }

func (d *DFS) Name() string {
	if d.bound < 0 {
		return "dfs"
	}
	return "dfs:" + strconv.Itoa(d.bound)
}

// Exhausted reports whether every schedule has been explored: true after the
// End of the last one.
func (d *DFS) Exhausted() bool { return d.done }

// Divergence describes why Next or Choose returned -1.
func (d *DFS) Divergence() string { return d.div }

func (d *DFS) Begin(uint64) {
	if d.done {
		// Explored everything: start over rather than fail.
		d.done = false
	}
	d.depth = 0
	d.prev = -1
	d.preempt = 0
	d.div = ""
}

func (d *DFS) Next(enabled []Op) int {
	if i := firstLocal(enabled); i >= 0 {
		return i // commutes with everything: no branch needed
	}
	prevAt := -1
	for i := range enabled {
		if enabled[i].Task == d.prev {
			prevAt = i
			break
		}
	}
	n := len(enabled)
	if prevAt >= 0 && d.bound >= 0 && d.preempt >= d.bound {
		n = 1 // only the non-preemptive step is allowed
	}
	alt := d.decide(int32(n), false)
	if alt < 0 {
		return -1
	}
	// Alternative 0 continues the previous task if it can; the others follow
	// enabled order.
	i := int(alt)
	if prevAt >= 0 {
		switch {
		case alt == 0:
			i = prevAt
		case int(alt) <= prevAt:
			i = int(alt) - 1
		}
	}
	if prevAt >= 0 && i != prevAt {
		d.preempt++
	}
	d.prev = enabled[i].Task
	return i
}

func (d *DFS) Choose(n int) int { return int(d.decide(int32(n), true)) }

// decide returns the alternative to take at the current decision, replaying
// the stack or extending it.
func (d *DFS) decide(n int32, choose bool) int32 {
	if d.depth < len(d.stack) {
		nd := d.stack[d.depth]
		if nd.n != n || nd.choose != choose {
			what := func(c bool, n int32) string {
				if c {
					return fmt.Sprintf("a choice among %d values", n)
				}
				return fmt.Sprintf("%d enabled ops", n)
			}
			d.div = fmt.Sprintf("dfs: the program is not deterministic: decision %d replayed %s, but the previous schedule had %s there",
				d.depth+1, what(choose, n), what(nd.choose, nd.n))
			return -1
		}
		d.depth++
		return nd.i
	}
	d.stack = append(d.stack, dfsNode{n: n, choose: choose})
	d.depth++
	return 0
}

// End moves to the next schedule: the deepest decision that has an
// alternative left takes it, and the decisions after it are forgotten.
func (d *DFS) End(*trace.Trace) {
	if d.div != "" {
		return
	}
	d.stack = d.stack[:d.depth]
	for len(d.stack) > 0 && d.stack[len(d.stack)-1].i+1 >= d.stack[len(d.stack)-1].n {
		d.stack = d.stack[:len(d.stack)-1]
	}
	if len(d.stack) == 0 {
		d.done = true
		return
	}
	d.stack[len(d.stack)-1].i++
}
