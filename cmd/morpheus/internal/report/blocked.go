package report

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus/trace"
)

// crossAt draws a crash's ✕ at (x, y) with a tooltip.
func crossAt(b *strings.Builder, x, y int, title string) {
	fmt.Fprintf(b, `<path class="crash" d="M%d,%d L%d,%d M%d,%d L%d,%d"><title>%s</title></path>`,
		x-7, y-7, x+7, y+7, x+7, y-7, x-7, y+7, esc(title))
}

// bands draws the band of each fold: a row across the diagram that stands
// for the cycles between the first and the last one drawn.
func (d *diagram) bands(b *strings.Builder, width int) {
	for r, it := range d.items {
		f := it.fold
		if f == nil {
			continue
		}
		y := d.rowY(r)
		hidden := f.Count - 2
		text := fmt.Sprintf("⋮ %d more cycles as above, steps %d–%d", hidden, f.FirstStep+f.Period, f.FirstStep+f.Steps()-f.Period-1)
		fmt.Fprintf(b, `<g class="fold" data-steps="%d"><rect class="fold-band" x="%d" y="%d" width="%d" height="%d"/>`,
			hidden*f.Period, gutter, y-rowH/2+1, width-gutter, rowH-2)
		fmt.Fprintf(b, `<text class="fold-text" x="%d" y="%d" dy="0.32em">%s<title>%s</title></text></g>`, gutter+8, y, esc(text), esc(d.t.FoldText(*f)))
	}
}

// blocked draws a deadlock's blocked ops on a row of their own below the
// steps: each ringed on its task's lane and labelled with the op and its
// object, and an arrow from each to the tasks holding what it waits for
// (the wait-for graph), drawn bold where it closes a cycle.
func (d *diagram) blocked(b *strings.Builder) {
	if len(d.waits) == 0 {
		return
	}
	y := d.rowY(len(d.items) + 1)
	fmt.Fprintf(b, `<text class="time" x="4" y="%d" dy="0.32em">blocked</text>`, y)
	for i, w := range d.waits {
		for _, h := range w.holder {
			x1, x2 := d.x(w.task), d.x(h)
			if x1 == x2 {
				continue
			}
			// An arc above the row, the labels being below it; higher going
			// left, so that the two arrows of a two-task cycle do not meet.
			bend := -22
			if x2 < x1 {
				bend = -40
			}
			dx := 9
			if x2 < x1 {
				dx = -9
			}
			class := "arrow waitfor"
			if d.cycle[i] {
				class += " cycle"
			}
			fmt.Fprintf(b, `<path class="%s" data-ref="%s" d="M%d,%d Q%d,%d %d,%d" marker-end="url(#seq-head)"><title>%s waits for %s, held by %s</title></path>`,
				class, w.ref, x1+dx, y, (x1+x2)/2, y+bend, x2-dx, y, esc(d.t.TaskName(w.task)), esc(w.object), esc(d.t.TaskName(h)))
		}
	}
	for _, w := range d.waits {
		x := d.x(w.task)
		label := w.op
		if w.object != "" {
			label += " " + w.object
		}
		tip := d.t.TaskName(w.task) + " blocked in " + label
		if w.loc != "" {
			tip += " at " + w.loc
		}
		if w.extra != "" {
			tip += " (" + w.extra + ")"
		}
		fmt.Fprintf(b, `<circle class="blocked-ring" cx="%d" cy="%d" r="9"/>`, x, y)
		fmt.Fprintf(b, `<circle class="step blocked" data-ref="%s" cx="%d" cy="%d" r="4"><title>%s</title></circle>`, w.ref, x, y, esc(tip))
		fmt.Fprintf(b, `<text class="op" x="%d" y="%d" dy="1.4em">%s</text>`, x+8, y, esc(cut(label)))
	}
}

// holdSince returns the step number at which task h took the lock on res
// that it still holds, 0 if the trace does not show it.
func holdSince(t *trace.Trace, all []step, h int32, res uint32) int {
	n := 0
	for _, s := range all {
		e := &t.Events[s.ev]
		if e.Task != h || e.Res != res || e.Val == trace.ValNone {
			continue
		}
		if e.Kind == trace.KindRLock || (e.Kind == trace.KindLock || e.Kind == trace.KindTryLock) && e.Flag&trace.FlagRead == 0 {
			n = s.n
		}
	}
	return n
}
