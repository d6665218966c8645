package trace

import (
	"bytes"
	"io"
	"strconv"
	"text/tabwriter"
)

// RenderFolded writes events [from, to) of t as Render does, but each run
// of a repeated cycle (see Folds, found over the whole trace) as one line:
// its first step and time, the cycle with its count, and where it ends:
//
//	13  0.100s  × 6000: client@n1 recv timeout; client@n1 send → server@n2 dropped (to step 12012 at 600.000s)
//
// A fold that from or to cuts is shown whole if it starts in the window.
func RenderFolded(w io.Writer, t *Trace, from, to int) error {
	if to < 0 || to > len(t.Events) {
		to = len(t.Events)
	}
	from = max(0, min(from, to))
	folds := Folds(t, 0, -1)
	step, now := 0, int64(0)
	for i := range t.Events[:from] {
		step, now = advance(&t.Events[i], step, now)
	}
	width := len(strconv.Itoa(t.Steps()))
	var out bytes.Buffer
	tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
	var b []byte
	k := 0 // next fold
	for i := from; i < to; {
		for k < len(folds) && folds[k].End <= i {
			k++
		}
		if k < len(folds) && folds[k].Start == i {
			f := folds[k]
			start := now
			for j := i; j < f.End; j++ {
				step, now = advance(&t.Events[j], step, now)
			}
			first := strconv.Itoa(f.FirstStep)
			b = b[:0]
			for range width - len(first) {
				b = append(b, ' ')
			}
			b = append(append(b, first...), '\t')
			b = append(append(b, fmtTime(start)...), '\t')
			b = append(b, t.FoldText(f)...)
			b = append(append(b, " (to step "...), strconv.Itoa(step)...)
			if now != start {
				b = append(append(b, " at "...), fmtTime(now)...)
			}
			b = append(b, ')')
			tw.Write(append(b, '\n'))
			i = f.End
			continue
		}
		e := &t.Events[i]
		step, now = advance(e, step, now)
		i++
		if e.IsStep() {
			b = t.appendLine(b[:0], width, step, now, e)
			tw.Write(b)
		}
	}
	return flushLines(w, tw, &out)
}

// TailFolded returns the index of the event from which the last n lines of
// RenderFolded start: the end of a long trace, with its repeated cycles
// folded, so that the steps before a long idle repetition stay in view.
func TailFolded(t *Trace, n int) (from int) {
	if n <= 0 {
		return len(t.Events)
	}
	folds := Folds(t, 0, -1)
	k := len(folds) - 1
	for i := len(t.Events) - 1; i >= 0; i-- {
		if k >= 0 && i < folds[k].End && i >= folds[k].Start {
			i = folds[k].Start
			k--
		} else if !t.Events[i].IsStep() {
			continue
		}
		if n--; n == 0 {
			return i
		}
	}
	return 0
}
