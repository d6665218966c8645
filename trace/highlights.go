package trace

import (
	"regexp"
	"strconv"
	"strings"
)

// Highlight is a step a reader of a long trace should see first: a crash,
// a restart, a partition or heal, the step at which a monitor still hot at
// the end last changed state, and the last progress before the run fell
// into the cycle it repeats to its end.
type Highlight struct {
	Event int    // index in Events of the step
	Step  int    // its step number, from 1
	What  string // "crash", "restart", "partition", "heal", "monitor", "last progress"
	Text  string // what happened, for a person
}

// maxHighlights bounds the faults Highlights lists: the first and the last
// maxHighlights/2 of them.
const maxHighlights = 20

// hotMonitor matches a hot monitor's line of a liveness failure message.
var hotMonitor = regexp.MustCompile(`monitor (\S+) is hot in state ("(?:[^"\\]|\\.)*") since (\S+) \(step ([0-9]+)\)`)

// Highlights returns the steps of t a person should read first, in step
// order. The monitor's step comes from the failure message, which names it.
func Highlights(t *Trace) []Highlight {
	num := make([]int, len(t.Events)) // step number of each step event
	evOf := map[int]int{}             // step number -> event index
	n := 0
	for i := range t.Events {
		if t.Events[i].IsStep() {
			n++
			num[i], evOf[n] = n, i
		}
	}
	var faults []Highlight
	for i := range t.Events {
		e := &t.Events[i]
		switch e.Kind {
		case KindCrash:
			faults = append(faults, Highlight{i, num[i], "crash", t.crashText(i)})
		case KindRestart:
			faults = append(faults, Highlight{i, num[i], "restart", "node " + strconv.FormatInt(e.Val, 10) + " restarts"})
		case KindPartition:
			faults = append(faults, Highlight{i, num[i], "partition", "the network splits (partition " + strconv.FormatInt(e.Val, 10) + ")"})
		case KindHeal:
			faults = append(faults, Highlight{i, num[i], "heal", "the network heals"})
		}
	}
	if len(faults) > maxHighlights {
		faults = append(faults[:maxHighlights/2:maxHighlights/2], faults[len(faults)-maxHighlights/2:]...)
	}
	out := faults
	if f := t.Header.Failure; f != nil {
		for _, m := range hotMonitor.FindAllStringSubmatch(f.Message, -1) {
			step, _ := strconv.Atoi(m[4])
			if i, ok := evOf[step]; ok {
				out = append(out, Highlight{i, step, "monitor", "monitor " + m[1] + " is hot from here on, in state " + m[2]})
			}
		}
	}
	if folds := Folds(t, 0, -1); len(folds) > 0 {
		last := folds[len(folds)-1]
		if last.End == len(t.Events) && last.FirstStep > 1 {
			i := last.Start - 1
			for i >= 0 && !t.Events[i].IsStep() {
				i--
			}
			if i >= 0 {
				e := &t.Events[i]
				out = append(out, Highlight{i, num[i], "last progress", "last progress (" + e.OpName() + "); then the run repeats one cycle to its end, " + t.FoldText(last)})
			}
		}
	}
	sortHighlights(out)
	return out
}

func sortHighlights(hs []Highlight) {
	for i := 1; i < len(hs); i++ { // few: insertion sort keeps equal steps in order
		for j := i; j > 0 && hs[j].Step < hs[j-1].Step; j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

// crashText describes crash event i: the node and the tasks it killed (the
// kill steps the crashing task took just before it).
func (t *Trace) crashText(i int) string {
	var killed []string
	for _, v := range t.CrashVictims(i) {
		killed = append([]string{t.TaskName(v)}, killed...)
	}
	s := "node " + strconv.FormatInt(t.Events[i].Val, 10) + " crashes"
	if len(killed) > 0 {
		s += ", killing " + strings.Join(killed, ", ")
	}
	return s
}

// CrashVictims returns the tasks crash event i killed, latest first: the
// victims of the kill steps its task took just before it.
func (t *Trace) CrashVictims(i int) []int32 {
	var out []int32
	for j := i - 1; j >= 0; j-- {
		k := &t.Events[j]
		if !k.IsStep() {
			continue
		}
		if k.Task != t.Events[i].Task || k.Kind != KindKill {
			break
		}
		if k.Obj >= 0 {
			out = append(out, k.Obj)
		}
	}
	return out
}

// FoldText describes fold f for a person: "× 600: client@n1 recv timeout;
// client@n1 send → server@n2 dropped".
func (t *Trace) FoldText(f Fold) string {
	var parts []string
	for i, k := f.Start, 0; i < f.End && k < f.Period; i++ {
		e := &t.Events[i]
		if !e.IsStep() {
			continue
		}
		k++
		s := t.TaskName(e.Task) + " " + e.OpName()
		if d := t.foldDetail(e); d != "" {
			s += " " + d
		}
		parts = append(parts, s)
	}
	return "× " + strconv.Itoa(f.Count) + ": " + printable(strings.Join(parts, "; "))
}

// foldDetail is an event's detail without its message: in a fold the
// message differs from cycle to cycle only by its count, and the text would
// drown the cycle's shape.
func (t *Trace) foldDetail(e *Event) string {
	switch e.Kind {
	case KindSend, KindTimer:
		s := "→ " + t.peer(e.Obj)
		if e.Flag&FlagDropped != 0 {
			s += " dropped"
		}
		return s
	case KindRecv:
		if e.Flag&FlagTimeout != 0 {
			return "timeout"
		}
		return "← " + t.peer(e.Obj)
	}
	return t.detail(e)
}
