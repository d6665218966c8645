package report

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/trace"
)

// Sequence diagram geometry, in SVG user units.
const (
	gutter   = 72  // left column of virtual times
	laneW    = 160 // width of a task's lane
	headerH  = 44  // lane titles
	rowH     = 18  // one step
	footerH  = 16
	maxLabel = 24 // runes of an op label or lane title
)

// maxDiagramSteps bounds the steps the diagram draws: a longer trace is drawn
// from its last maxDiagramSteps steps, where the failure is.
const maxDiagramSteps = 600

// arrow is an edge the diagram draws between two steps (event indexes).
type arrow struct {
	from, to int
	class    string // msg, chan or spawn
	title    string
}

// diagram lays out the sequence diagram of one trace.
type diagram struct {
	t      *trace.Trace
	items  []item // the rows drawn: steps, and the bands of folds
	steps  []step // the steps drawn
	row    map[int]int
	lanes  []int32       // tasks with a lane, in task order
	laneOf map[int32]int // task -> lane index
	arrows []arrow
	races  []race
	racy   map[int]bool // events in a race
	fail   int          // the failure's event, or -1
	waits  []wait       // a deadlock's blocked tasks, drawn on a row of their own
	cycle  map[int]bool // waits in the wait-for cycle
	names  map[uint32]string
}

// newDiagram lays out the last maxDiagramSteps rows of all (the steps of t),
// with repeated cycles folded, and the row of blocked ops ws.
func newDiagram(t *trace.Trace, all []step, races []race, fail int, ws []wait, names map[uint32]string) *diagram {
	d := &diagram{t: t, row: map[int]int{}, laneOf: map[int32]int{}, racy: map[int]bool{}, fail: fail,
		waits: ws, cycle: map[int]bool{}, names: names}
	d.items = layout(t, all, foldsOf(t), maxDiagramSteps)
	seen := map[int32]bool{}
	maxTask := int32(-1)
	see := func(task int32) { seen[task], maxTask = true, max(maxTask, task) }
	for r, it := range d.items {
		if it.fold != nil {
			continue
		}
		d.steps = append(d.steps, it.step)
		d.row[it.step.ev] = r
		e := &t.Events[it.step.ev]
		see(e.Task)
		if e.Kind == trace.KindCrash {
			for _, v := range t.CrashVictims(it.step.ev) {
				see(v)
			}
		}
	}
	for _, w := range ws {
		see(w.task)
		for _, h := range w.holder {
			see(h)
		}
	}
	for id := int32(-1); id <= maxTask; id++ {
		if seen[id] {
			d.laneOf[id] = len(d.lanes)
			d.lanes = append(d.lanes, id)
		}
	}
	d.arrows = arrowsOf(t, d.row)
	for _, r := range races {
		d.racy[r.a], d.racy[r.b] = true, true
	}
	d.races = races
	for _, i := range waitCycle(ws) {
		d.cycle[i] = true
	}
	return d
}

// arrowsOf returns the messages, channel values and spawns of t whose two
// ends are both drawn (in rows).
func arrowsOf(t *trace.Trace, rows map[int]int) []arrow {
	var out []arrow
	add := func(from, to int, class, title string) {
		if _, ok := rows[from]; !ok {
			return
		}
		if _, ok := rows[to]; !ok {
			return
		}
		out = append(out, arrow{from, to, class, title})
	}
	inFlight := map[int64]int{}    // message id -> the step that last passed it on
	chanVals := map[[2]int64]int{} // (channel, value id) -> its send
	firstStep := map[int32]int{}   // task -> its first step
	spawnOf := map[int32]int{}     // child -> the spawn that made it
	lastStep := map[int32]int{}    // task -> its latest step
	for i := range t.Events {
		e := &t.Events[i]
		if !e.IsStep() || e.Task < 0 {
			continue
		}
		if _, ok := firstStep[e.Task]; !ok {
			firstStep[e.Task] = i
			if s, ok := spawnOf[e.Task]; ok {
				add(s, i, "spawn", "spawn "+t.TaskName(e.Task))
			}
		}
		switch e.Kind {
		case trace.KindRecv, trace.KindDeliver:
			if e.Kind == trace.KindRecv && e.Flag&trace.FlagTimeout != 0 {
				break
			}
			if src, ok := inFlight[e.Val]; ok {
				delete(inFlight, e.Val)
				add(src, i, "msg", msgTitle(t, e.Val))
			}
		case trace.KindChanRecv:
			if e.Val < 0 {
				break
			}
			if src, ok := chanVals[[2]int64{int64(e.Res), e.Val}]; ok {
				delete(chanVals, [2]int64{int64(e.Res), e.Val})
				add(src, i, "chan", "channel value")
			} else if src, ok := lastStep[e.Obj]; ok && e.Obj >= 0 {
				// Taken from a sender blocked on the channel: the value
				// comes from where the sender waits.
				add(src, i, "chan", "channel value from a blocked sender")
			}
		case trace.KindSpawn:
			if e.Obj >= 0 {
				spawnOf[e.Obj] = i
			}
		}
		switch e.Kind {
		case trace.KindSend, trace.KindTimer, trace.KindDeliver:
			if e.Flag&trace.FlagDropped == 0 && e.Val >= 0 {
				inFlight[e.Val] = i
			}
		case trace.KindChanSend:
			if e.Val >= 0 {
				chanVals[[2]int64{int64(e.Res), e.Val}] = i
			}
		}
		lastStep[e.Task] = i
	}
	return out
}

func msgTitle(t *trace.Trace, id int64) string {
	s := "message " + strconv.FormatInt(id, 10)
	if m := t.MsgText(id); m != "" {
		s += ": " + m
	}
	return s
}

func (d *diagram) x(task int32) int { return gutter + d.laneOf[task]*laneW + laneW/2 }
func (d *diagram) y(ev int) int     { return d.rowY(d.row[ev]) }
func (d *diagram) rowY(r int) int   { return headerH + r*rowH + rowH/2 }

// rows is the number of rows drawn: the items, then, after a gap, the
// blocked ops and their labels.
func (d *diagram) rows() int {
	if len(d.waits) > 0 {
		return len(d.items) + 3
	}
	return len(d.items)
}

// svg returns the diagram's markup.
func (d *diagram) svg() template.HTML {
	t := d.t
	w := gutter + len(d.lanes)*laneW + laneW/2 // room for the last lane's labels
	h := headerH + d.rows()*rowH + footerH
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="seq-wrap"><svg class="seq" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="sequence diagram">`, w, h, w, h)
	b.WriteString(`<defs><marker id="seq-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>`)
	// Lanes: a title and a lifeline each.
	for i, task := range d.lanes {
		x := d.x(task)
		name := t.TaskName(task)
		bg := "lane-bg"
		if i%2 == 1 {
			bg += " odd"
		}
		fmt.Fprintf(&b, `<g class="lane" data-task="%d"><rect class="%s" x="%d" y="0" width="%d" height="%d"/>`,
			task, bg, gutter+i*laneW, laneW, h)
		fmt.Fprintf(&b, `<text class="lane-title" x="%d" y="18" text-anchor="middle">%s<title>task %d: %s</title></text>`, x, esc(cut(name)), task, esc(name))
		fmt.Fprintf(&b, `<line class="lifeline" x1="%d" y1="%d" x2="%d" y2="%d"/></g>`, x, headerH-14, x, h-footerH/2)
	}
	// Virtual time in the gutter, where it changes.
	last := int64(-1)
	for r, it := range d.items {
		if it.fold == nil && it.step.now != last {
			last = it.step.now
			fmt.Fprintf(&b, `<text class="time" x="4" y="%d" dy="0.32em">%s</text>`, d.rowY(r), trace.FormatTime(last))
		}
	}
	d.bands(&b, w)
	// Races first, under the rest.
	for k, r := range d.races {
		if _, ok := d.row[r.a]; !ok {
			continue
		}
		if _, ok := d.row[r.b]; !ok {
			continue
		}
		ea, eb := &t.Events[r.a], &t.Events[r.b]
		fmt.Fprintf(&b, `<line class="race-link" data-ref="r%d" x1="%d" y1="%d" x2="%d" y2="%d"><title>race: step %d (%s) and step %d (%s) on %s</title></line>`,
			k+1, d.x(ea.Task), d.y(r.a), d.x(eb.Task), d.y(r.b), d.stepNo(r.a), ea.OpName(), d.stepNo(r.b), eb.OpName(), esc(resName(d.names, ea.Res)))
	}
	for _, a := range d.arrows {
		x1, y1 := d.x(t.Events[a.from].Task), d.y(a.from)
		x2, y2 := d.x(t.Events[a.to].Task), d.y(a.to)
		var path string
		if x1 == x2 { // to itself: a loop to the right of the lane
			path = fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", x1+5, y1, x1+40, y1, x2+40, y2, x2+6, y2)
		} else {
			dx := 6
			if x2 < x1 {
				dx = -6
			}
			path = fmt.Sprintf("M%d,%d L%d,%d", x1, y1, x2-dx, y2)
		}
		fmt.Fprintf(&b, `<path class="arrow %s" d="%s" marker-end="url(#seq-head)"><title>%s</title></path>`, a.class, path, esc(a.title))
	}
	for _, s := range d.steps {
		d.mark(&b, s)
	}
	d.blocked(&b)
	b.WriteString(`</svg></div>`)
	return template.HTML(b.String())
}

// mark draws step s: a dot on its lane with an op label, and the marks of
// crashes, time-outs, dropped messages, races and the failure.
func (d *diagram) mark(b *strings.Builder, s step) {
	t := d.t
	e := &t.Events[s.ev]
	x, y := d.x(e.Task), d.y(s.ev)
	class := "step k-" + e.Kind.String()
	if d.racy[s.ev] {
		class += " racy"
	}
	if s.ev == d.fail {
		class += " failed"
	}
	label := e.OpName()
	lx := x + 8 // where the label starts
	switch {
	case e.Flag&trace.FlagFault != 0: // a fault decision: "drop → backup@n2 …"
		label = t.Detail(e)
	case e.Kind == trace.KindCrash:
		crossAt(b, x, y, "crash of node "+strconv.FormatInt(e.Val, 10))
		label += " node " + strconv.FormatInt(e.Val, 10)
		for _, v := range t.CrashVictims(s.ev) {
			// On the victim's own lane too: it ends here.
			vx := d.x(v)
			crossAt(b, vx, y, t.TaskName(v)+" killed by the crash of node "+strconv.FormatInt(e.Val, 10))
			fmt.Fprintf(b, `<text class="op victim" x="%d" y="%d" dy="0.32em">crashed</text>`, vx+10, y)
		}
	case e.Kind == trace.KindRestart:
		fmt.Fprintf(b, `<rect class="restart" x="%d" y="%d" width="12" height="12"/>`, x-6, y-6)
		label += " node " + strconv.FormatInt(e.Val, 10)
	case e.Flag&trace.FlagTimeout != 0:
		fmt.Fprintf(b, `<path class="timeout" d="M%d,%d L%d,%d L%d,%d L%d,%d z"/>`, x, y-7, x+7, y, x, y+7, x-7, y)
		label += " timeout"
	case e.Flag&trace.FlagDropped != 0:
		// A stub towards the receiver ending in a cross: the message is lost.
		tx := x + 30
		if o, ok := d.laneOf[e.Obj]; ok && o < d.laneOf[e.Task] {
			tx = x - 30
		} else {
			lx = tx + 8 // the label after the cross, not under it
		}
		fmt.Fprintf(b, `<path class="dropped" d="M%d,%d L%d,%d M%d,%d L%d,%d M%d,%d L%d,%d"><title>dropped: %s</title></path>`,
			x, y, tx, y, tx-4, y-4, tx+4, y+4, tx+4, y-4, tx-4, y+4, esc(msgTitle(t, e.Val)))
		label += " dropped"
	case e.Kind == trace.KindChoose:
		label += " = " + strconv.FormatInt(e.Val, 10)
	}
	if s.ev == d.fail {
		fmt.Fprintf(b, `<circle class="fail-ring" cx="%d" cy="%d" r="9"/>`, x, y)
		label += " ✗ " + t.Header.Failure.Kind
	}
	tip := fmt.Sprintf("step %d at %s: %s %s %s", s.n, trace.FormatTime(s.now), t.TaskName(e.Task), e.OpName(), t.Detail(e))
	if e.Loc != 0 {
		tip += " (" + t.LocString(e.Loc) + ")"
	}
	fmt.Fprintf(b, `<circle class="%s" data-ref="s%d" cx="%d" cy="%d" r="4"><title>%s</title></circle>`, class, s.n, x, y, esc(strings.TrimSpace(tip)))
	fmt.Fprintf(b, `<text class="op" x="%d" y="%d" dy="0.32em">%s</text>`, lx, y, esc(cut(label)))
}

func (d *diagram) stepNo(ev int) int {
	if r, ok := d.row[ev]; ok {
		return d.items[r].step.n
	}
	return 0
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// diagramCSS styles the sequence diagram.
const diagramCSS = `
.seq-wrap { overflow: auto; max-height: 80vh; border: 1px solid var(--line); border-radius: 6px; }
.seq { display: block; font-size: 11px; }
.seq .lane-bg { fill: transparent; }
.seq .lane-bg.odd { fill: var(--panel); }
.seq .lane-title { font-weight: 600; fill: var(--fg); }
.seq .lifeline { stroke: var(--line); stroke-width: 2; }
.seq .time { fill: var(--muted); font-variant-numeric: tabular-nums; }
.seq .step { fill: var(--accent); stroke: var(--bg); stroke-width: 1; cursor: pointer; }
.seq .step.racy { fill: #e36209; }
.seq .step.failed { fill: var(--bad); }
.seq .step.hot, .seq .step.pinned { r: 7; stroke: var(--fg); }
.seq .op { fill: var(--fg); }
.seq .arrow { fill: none; stroke: var(--muted); stroke-width: 1.3; }
.seq .arrow.msg { stroke: var(--accent); }
.seq .arrow.spawn { stroke-dasharray: 4 3; }
.seq .arrow.chan { stroke: var(--good); }
.seq marker path { fill: var(--muted); }
.seq .crash { stroke: var(--bad); stroke-width: 3; }
.seq .op.victim { fill: var(--bad); font-weight: 600; }
.seq .fold-band { fill: var(--panel); stroke: var(--line); stroke-dasharray: 3 3; }
.seq .fold-text { fill: var(--muted); font-style: italic; }
.seq .step.blocked { fill: var(--bad); }
.seq .blocked-ring { fill: none; stroke: var(--bad); stroke-width: 2.5; }
.seq .arrow.waitfor { stroke: var(--bad); stroke-width: 1.5; stroke-dasharray: 5 3; }
.seq .arrow.waitfor.cycle { stroke-width: 2.5; stroke-dasharray: none; }
.seq .restart { fill: none; stroke: var(--good); stroke-width: 2; }
.seq .timeout { fill: #d4a72c; }
.seq .dropped { stroke: var(--bad); stroke-width: 1.5; fill: none; }
.seq .fail-ring { fill: none; stroke: var(--bad); stroke-width: 2.5; }
.seq .race-link { stroke: #e36209; stroke-width: 3; stroke-dasharray: 2 3; opacity: 0; }
.seq .race-link.hot, .seq .race-link.pinned { opacity: 1; }
`
