package trace

// Fold is a run of steps that repeats one cycle of steps over and over, such
// as a client's "send, receive time-out" retries to a crashed server: a
// reader needs one cycle and the count, not the thousands of lines.
type Fold struct {
	Start, End int // event indexes: the run's first step, and one past its last
	Period     int // steps in one cycle
	Count      int // cycles in the run
	FirstStep  int // step number (from 1) of the run's first step
}

// Steps returns the number of steps the fold covers.
func (f Fold) Steps() int { return f.Period * f.Count }

// Fold bounds: a cycle is at most maxFoldPeriod steps, and a run is folded
// when it repeats its cycle at least minFoldCount times.
const (
	maxFoldPeriod = 16
	minFoldCount  = 4
)

// foldSig is what two steps must share to count as the same step of a
// cycle: task, op, peer, flags and location; not the message or value (ids
// grow with every retry), except a choice's value. Tasks are told apart by
// name: a timer set again each round is a new task of the same name.
type foldSig struct {
	task, obj int32
	kind      Kind
	flag      Flag
	loc       uint64
	val       int64
}

func sigOf(e *Event, name []int32) foldSig {
	s := foldSig{task: byName(e.Task, name), obj: byName(e.Obj, name), kind: e.Kind, flag: e.Flag, loc: e.Loc}
	if e.Kind == KindChoose || e.Kind == KindCrash || e.Kind == KindRestart {
		s.val = e.Val
	}
	return s
}

// Folds returns the runs of t's steps in [from, to) (event indexes; to < 0
// means to the end) that repeat a cycle of at most 16 steps at least
// minFoldCount times, in order and not overlapping. Scanning from the
// start, each run is the one covering the most steps from its first, with
// the shortest cycle among those.
func Folds(t *Trace, from, to int) []Fold {
	if to < 0 || to > len(t.Events) {
		to = len(t.Events)
	}
	from = max(0, min(from, to))
	first := 1
	for i := range t.Events[:from] {
		if t.Events[i].IsStep() {
			first++
		}
	}
	name := make([]int32, len(t.Tasks)) // task -> its name's first task
	first0 := map[string]int32{}
	for i := range t.Tasks {
		n := t.TaskName(int32(i))
		if _, ok := first0[n]; !ok {
			first0[n] = int32(i)
		}
		name[i] = first0[n]
	}
	var sigs []foldSig
	var evs []int // event index of each step
	for i := from; i < to; i++ {
		if e := &t.Events[i]; e.IsStep() {
			sigs = append(sigs, sigOf(e, name))
			evs = append(evs, i)
		}
	}
	var out []Fold
	for i := 0; i < len(sigs); {
		bestP, bestN := 0, 0
		for p := 1; p <= maxFoldPeriod && i+2*p <= len(sigs); p++ {
			l := 0 // steps from i that equal the step p later
			for i+l+p < len(sigs) && sigs[i+l] == sigs[i+l+p] {
				l++
			}
			if n := l/p + 1; n >= minFoldCount && n*p > bestN*bestP {
				bestP, bestN = p, n
			}
		}
		if bestP == 0 {
			i++
			continue
		}
		end := to
		if j := i + bestP*bestN; j < len(evs) {
			end = evs[j]
		}
		out = append(out, Fold{Start: evs[i], End: end, Period: bestP, Count: bestN, FirstStep: first + i})
		i += bestP * bestN
	}
	return out
}

// byName returns the first task with task's name, task itself if the table
// lacks it.
func byName(task int32, name []int32) int32 {
	if task >= 0 && int(task) < len(name) {
		return name[task]
	}
	return task
}
