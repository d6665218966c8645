package perf

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// How the cost of a step grows with the work: a ring of processes passing
// tokens, run with as many processes and as many steps per iteration as
// asked, gives the nanoseconds per step of a strategy against the size of
// an iteration ("morpheus bench scale"). A per-step cost that grows with
// the tasks or with the steps already taken (an enabled-set scan, a growing
// trace, a vector clock per task) shows as a row or a column that climbs.

// ringTokens is the number of tokens that travel a ring: the enabled set
// holds at most this many receives (and the sends just made), however many
// processes wait, so a step's cost does not grow with the ring because the
// strategy has more to choose from.
const ringTokens = 4

// Ring is an iteration of n processes in a ring and ringTokens tokens, each
// passed on hops times: a process receives a token and sends it to the next
// process; a token that has made its hops goes back to the main task,
// which returns once it has them all. The processes wait in Receive at the
// end, as servers do (not leaks).
func Ring(n, hops int) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		main := e.Self()
		node := e.NewNode("n1", nil)
		ring := make([]morpheus.PID, n)
		for i := range n {
			next := i + 1
			ring[i] = node.Spawn("p", func(e *morpheus.Env) {
				for {
					h := morpheus.Recv[int](e)
					if h == 0 {
						e.Send(main, 0)
						continue
					}
					e.Send(ring[next%n], h-1)
				}
			})
		}
		for k := range ringTokens {
			e.Send(ring[k*n/ringTokens], hops)
		}
		for range ringTokens {
			morpheus.Recv[int](e)
		}
	}
}

// RingHops returns the hops per token that make an iteration of Ring with
// n processes about steps steps long, or 0 if spawning the ring alone
// takes more than half of them.
func RingHops(n, steps int) int {
	setup := 2*n + 2*ringTokens + 4 // spawns and starts, injections, the tokens' return
	if 2*setup > steps {
		return 0
	}
	return (steps - setup) / (2 * ringTokens) // a hop: a receive and a send
}

// ScaleCell is one measurement of Scale: a strategy on iterations of the
// given size.
type ScaleCell struct {
	Workload   string  `json:"workload"`
	Strategy   string  `json:"strategy"`
	Tasks      int     `json:"tasks"`
	Steps      int     `json:"steps"`       // steps per iteration asked for
	MeanSteps  float64 `json:"mean_steps"`  // steps per iteration run
	Iterations int     `json:"iterations"`  // iterations run
	NsPerStep  float64 `json:"ns_per_step"` // wall time over all steps
	// CPUNsPerStep is the process's CPU time (user and system, every
	// thread: the garbage collector's too) over all steps: on a machine
	// shared with other jobs, the figure that their load moves least.
	CPUNsPerStep float64 `json:"cpu_ns_per_step"`
	Skipped      bool    `json:"skipped,omitempty"` // too few steps for the tasks
}

// A scaleWorkload makes iterations of n tasks: rounds gives how many of
// its rounds (hops of a token, round trips) make an iteration about steps
// steps long, 0 if setting up the tasks takes more than half of them, and
// body the iteration.
type scaleWorkload struct {
	name   string
	rounds func(n, steps int) int
	body   func(n, rounds int) func(*morpheus.Env)
}

var scaleWorkloads = []scaleWorkload{
	{"actors", RingHops, Ring},
	{"goroutines", GoroutineHops, Goroutines},
	{"timers", TimersRounds, Timers},
}

// RunScale runs iterations of the workload built by make (with the given
// number of tasks and about steps steps each, see Ring and Goroutines)
// under strategy, one worker, until budget steps have run in all (at least
// one iteration), and returns the cell. The strategy picks every step: the
// step limit is ten times the iteration's steps, so the fair tail (a random
// walk past a tenth of the limit) never starts.
func RunScale(workload, strategy string, tasks, steps, budget int) (ScaleCell, error) {
	c := ScaleCell{Workload: workload, Strategy: strategy, Tasks: tasks, Steps: steps}
	i := slices.IndexFunc(scaleWorkloads, func(w scaleWorkload) bool { return w.name == workload })
	if i < 0 {
		return c, fmt.Errorf("unknown workload %q (actors, goroutines, timers)", workload)
	}
	w := scaleWorkloads[i]
	rounds := w.rounds(tasks, steps)
	if rounds == 0 {
		c.Skipped = true
		return c, nil
	}
	body := w.body(tasks, rounds)
	iterations := max(1, budget/steps)
	cpu := cpuTime()
	res, err := morpheus.Explore(body, morpheus.Iterations(iterations), morpheus.Workers(1),
		morpheus.MaxSteps(10*steps+10_000), morpheus.Watchdog(10*time.Minute),
		morpheus.Name("scale"), morpheus.Strategy(strategy), morpheus.Seed(1))
	if err != nil {
		return c, err
	}
	if res.Failure != nil {
		return c, fmt.Errorf("%s, %s, %s, %s: %v", workload, strategy, plural.N(tasks, "task"), plural.N(steps, "step"), res.Failure)
	}
	cpu = cpuTime() - cpu
	c.Iterations = res.Iterations
	c.MeanSteps = float64(res.Steps) / float64(res.Iterations)
	c.NsPerStep = float64(res.Elapsed.Nanoseconds()) / float64(res.Steps)
	c.CPUNsPerStep = float64(cpu.Nanoseconds()) / float64(res.Steps)
	return c, nil
}

// ScaleConfig is the grid of Scale.
type ScaleConfig struct {
	Workloads  []string // "actors" (Ring), "goroutines" (Goroutines), "timers" (Timers)
	Strategies []string
	Tasks      []int
	Steps      []int // per iteration
	// Budget is the steps each cell runs in all, in iterations of its size
	// (at least one).
	Budget int
	// Count is the number of times each cell runs; the cell reported is
	// the one of median CPU time per step.
	Count int
}

// Scale measures every cell of the grid, workload by workload (the
// goroutine workload last: it turns the race detector on for the rest of
// the process), and calls done with each cell as it is measured.
func Scale(cfg ScaleConfig, done func(ScaleCell)) ([]ScaleCell, error) {
	var out []ScaleCell
	workloads := slices.Clone(cfg.Workloads)
	slices.SortStableFunc(workloads, func(a, b string) int {
		return cmp.Compare(b2i(a == "goroutines"), b2i(b == "goroutines"))
	})
	for _, w := range workloads {
		for _, s := range cfg.Strategies {
			for _, n := range cfg.Tasks {
				for _, steps := range cfg.Steps {
					runs := make([]ScaleCell, 0, max(cfg.Count, 1))
					for range max(cfg.Count, 1) {
						c, err := RunScale(w, s, n, steps, cfg.Budget)
						if err != nil {
							return out, err
						}
						runs = append(runs, c)
					}
					slices.SortFunc(runs, func(a, b ScaleCell) int { return cmp.Compare(a.CPUNsPerStep, b.CPUNsPerStep) })
					c := runs[len(runs)/2]
					out = append(out, c)
					if done != nil {
						done(c)
					}
				}
			}
		}
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
