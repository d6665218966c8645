package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

// maxTableSteps bounds the rows of the step table: a longer trace shows its
// last maxTableSteps steps.
const maxTableSteps = 2000

// failureSections describe the failure and show its trace.
func failureSections(f *FailureView) []htmlpage.Section {
	info := htmlpage.Stats{{Label: "kind", Value: orDash(f.Kind), Class: "bad"}}
	if f.Task != "" && (f.Trace == nil || len(waitsOf(f.Trace)) == 0) {
		// (A deadlock names the task it was noticed after: its blocked
		// tasks, below, are what matters.)
		info = append(info, htmlpage.Stat{Label: "task", Value: f.Task})
	}
	if f.Location != "" {
		info = append(info, htmlpage.Stat{Label: "location", Value: f.Location})
	}
	if f.Trace != nil {
		info = append(info, whereStats(f.Trace, f.Task == "")...)
		steps := htmlpage.Stat{Label: "steps", Value: strconv.Itoa(f.Trace.Steps())}
		if f.OriginalSteps > 0 {
			steps = htmlpage.Stat{Label: "steps (shrunk)", Value: fmt.Sprintf("%d from %d", f.Trace.Steps(), f.OriginalSteps), Class: "good"}
		}
		h := f.Trace.Header
		info = append(info, steps,
			htmlpage.Stat{Label: "iteration", Value: strconv.Itoa(h.Iteration + 1)},
			htmlpage.Stat{Label: "iteration seed", Value: hexSeed(h.Seed)})
	}
	sec := htmlpage.Section{Title: "Failure", ID: "failure", Blocks: []htmlpage.Block{info, htmlpage.Pre(failureWords(f))}}
	if f.OriginalSteps > 0 && f.Trace != nil {
		sec.Blocks = append(sec.Blocks, htmlpage.Paragraph(fmt.Sprintf("Shrunk from %d to %s.", f.OriginalSteps, plural.N(f.Trace.Steps(), "step"))))
	}
	if f.ShrinkTimedOut {
		sec.Blocks = append(sec.Blocks, htmlpage.Paragraph("Shrinking was stopped by its time budget: on a faster or slower machine the same failure may shrink to a different schedule."))
	}
	if f.Trace == nil {
		return []htmlpage.Section{sec}
	}
	return append([]htmlpage.Section{sec}, traceSections(f.Trace)...)
}

// failureWords is the failure's message in the console's words: a blocked
// task's line of a deadlock or leak says where it waits, for what and who
// holds that (DeadlockWaits), not the message's "blocked in lock on mutex#5
// first used at bank.go:13 at bank.go:13".
func failureWords(f *FailureView) string {
	msg := f.Message
	if f.Trace == nil {
		return msg
	}
	lines, words := DeadlockWaits(f.Trace)
	for i, l := range lines {
		msg = strings.Replace(msg, l, words[i], 1)
	}
	return msg
}

// whereStats says where a failure without a failing task is: the blocked
// tasks of a deadlock, the step a hot monitor has been hot since.
func whereStats(t *trace.Trace, noTask bool) htmlpage.Stats {
	var out htmlpage.Stats
	if ws := waitsOf(t); len(ws) > 0 {
		out = append(out, htmlpage.Stat{Label: "blocked tasks", Value: strconv.Itoa(len(ws))})
	}
	if !noTask {
		return out
	}
	for _, h := range trace.Highlights(t) {
		if h.What == "monitor" {
			out = append(out, htmlpage.Stat{Label: "hot since", Value: fmt.Sprintf("step %d (%s)", h.Step, t.TaskName(t.Events[h.Event].Task))})
			break
		}
	}
	return out
}

// traceSections show a trace: its key events, a deadlock's blocked tasks,
// a sequence diagram, the races that could have decided its outcome, and
// every step.
func traceSections(t *trace.Trace) []htmlpage.Section {
	all := stepsOf(t)
	ws := waitsOf(t)
	names := resourceNames(t, ws)
	fail := failureEvent(t, all)
	if len(ws) > 0 {
		// A deadlock is where the tasks wait, not the step it was noticed
		// after: the blocked ops are ringed instead.
		fail = -1
	}
	races, total := decidingRaces(t, fail)
	d := newDiagram(t, all, races, fail, ws, names)

	var out []htmlpage.Section
	if sec, ok := keyEventsSection(t, d); ok {
		out = append(out, sec)
	}
	if len(ws) > 0 {
		out = append(out, deadlockSection(t, all, ws, names))
	}
	diag := htmlpage.Section{Title: "Sequence diagram", ID: "sequence"}
	if shown := len(d.steps); shown < len(all) {
		diag.Blocks = append(diag.Blocks, htmlpage.Paragraph(fmt.Sprintf("%d of %d steps drawn: repeated cycles are folded (their first and last cycles drawn, a band between), and only the last %d rows are drawn; the table below has more.", shown, len(all), maxDiagramSteps)))
	}
	diag.Blocks = append(diag.Blocks,
		htmlpage.Paragraph("A lane per task, time runs down. Arrows: messages (blue), channel values (green), spawns (dashed), what a blocked task waits for (red). "+
			"✕ crash (on the crashing task's lane and on each task it killed), ◆ time-out, □ restart; orange steps race with another step the failure depends on (hover a row of the race table to see the pair); ringed steps failed or are blocked."),
		htmlpage.Raw(d.svg()))

	raceSec := htmlpage.Section{Title: "Races", ID: "races"}
	if f := t.Header.Failure; f != nil && f.Kind == "race" {
		// A data race is not in the causal past of its second access:
		// say where it is, before the pairs that decided the schedule.
		raceSec.Blocks = append(raceSec.Blocks, htmlpage.Paragraph("The failure is itself a data race: its two accesses, named in the failure's message above, are unordered by happens-before. The pairs below are the other races on the way to it."))
	}
	if len(races) == 0 {
		raceSec.Blocks = append(raceSec.Blocks, htmlpage.Paragraph(racesText(fail >= 0, 0, total, 0)))
	} else {
		tab := racesTable(t, all, races, names)
		raceSec.Blocks = append(raceSec.Blocks, htmlpage.Paragraph(racesText(fail >= 0, len(races), total, len(tab.Rows))), tab)
	}
	steps := htmlpage.Section{Title: "Steps", ID: "steps", Blocks: []htmlpage.Block{stepTable(t, all, d)}}
	if len(ws) > 0 {
		// The wait-for cycle is the story of a deadlock; races follow.
		return append(out, diag, steps, raceSec)
	}
	return append(out, diag, raceSec, steps)
}

// racesText introduces the race table: shown of total races, listed in
// rows rows, one per pair of code locations.
func racesText(hasFail bool, shown, total, rows int) string {
	what := "Pairs of steps of different tasks on the same resource that happens-before leaves unordered: another schedule could run them the other way round."
	if hasFail {
		what += " Only pairs in the causal past of the failing step are listed."
	}
	switch {
	case total == 0:
		return what + " There are none."
	case shown < total:
		what = fmt.Sprintf("%s %d found; the last %d are listed", what, total, shown)
	default:
		what = fmt.Sprintf("%s %d found", what, total)
	}
	if rows == shown {
		return what + "."
	}
	return fmt.Sprintf("%s in %d rows, one per pair of code locations: a row shows the latest of its races, and \"times\" says how many races it stands for (the same two lines racing again, as in every cycle of a loop).", what, rows)
}

// racesTable lists the races, one row per pair of code locations: the
// same two ops racing again in every cycle of a retry loop are one row, the
// latest pair, with how many times they race. Rows are numbered 1 to n;
// each keeps the reference of its race (the diagram's race lines).
func racesTable(t *trace.Trace, all []step, races []race, names map[uint32]string) *htmlpage.Table {
	num := make(map[int]int, len(all)) // event -> step number
	for _, s := range all {
		num[s.ev] = s.n
	}
	type sig struct {
		ta, tb int32
		ka, kb trace.Kind
		la, lb string
		res    uint32
	}
	latest, times := map[sig]int{}, map[sig]int{}
	sigOf := func(r race) sig {
		a, b := &t.Events[r.a], &t.Events[r.b]
		return sig{a.Task, b.Task, a.Kind, b.Kind, loc(t, a), loc(t, b), a.Res}
	}
	for k, r := range races {
		latest[sigOf(r)] = k
		times[sigOf(r)]++
	}
	tab := &htmlpage.Table{Sortable: true, Columns: []htmlpage.Column{
		{Name: "#", Numeric: true}, {Name: "resource"},
		{Name: "step", Numeric: true}, {Name: "task"}, {Name: "op"}, {Name: "location"},
		{Name: "step", Numeric: true}, {Name: "task"}, {Name: "op"}, {Name: "location"},
		{Name: "times", Numeric: true},
	}}
	for k, r := range races {
		sg := sigOf(r)
		if latest[sg] != k {
			continue
		}
		a, b := &t.Events[r.a], &t.Events[r.b]
		tab.Rows = append(tab.Rows, htmlpage.Row{Ref: "r" + strconv.Itoa(k+1), Cells: []string{
			strconv.Itoa(len(tab.Rows) + 1), resName(names, a.Res),
			strconv.Itoa(num[r.a]), t.TaskName(a.Task), a.OpName(), loc(t, a),
			strconv.Itoa(num[r.b]), t.TaskName(b.Task), b.OpName(), loc(t, b),
			strconv.Itoa(times[sg]),
		}})
	}
	return tab
}

func stepTable(t *trace.Trace, all []step, d *diagram) *htmlpage.Table {
	rows := layout(t, all, foldsOf(t), maxTableSteps)
	tab := &htmlpage.Table{Columns: []htmlpage.Column{
		{Name: "step", Numeric: true}, {Name: "time", Numeric: true}, {Name: "task"}, {Name: "op"}, {Name: "detail"}, {Name: "location"},
	}}
	if len(rows) < len(all) {
		tab.Caption = fmt.Sprintf("%d of %d steps: repeated cycles folded, the last %d rows", len(rows), len(all), maxTableSteps)
	}
	for _, it := range rows {
		s := it.step
		if f := it.fold; f != nil {
			last := f.FirstStep + f.Steps() - f.Period - 1
			tab.Rows = append(tab.Rows, htmlpage.Row{Class: "fold", Cells: []string{
				fmt.Sprintf("%d–%d", s.n, last), trace.FormatTime(s.now), "", fmt.Sprintf("× %d", f.Count-2),
				"the cycle above, again: " + t.FoldText(*f), "",
			}})
			continue
		}
		e := &t.Events[s.ev]
		r := htmlpage.Row{Cells: []string{
			strconv.Itoa(s.n), trace.FormatTime(s.now), t.TaskName(e.Task), e.OpName(), t.Detail(e), loc(t, e),
		}}
		if _, drawn := d.row[s.ev]; drawn {
			r.Ref = "s" + strconv.Itoa(s.n)
		}
		switch {
		case s.ev == d.fail:
			r.Class = "bad"
		case d.racy[s.ev]:
			r.Class = "hl"
		}
		tab.Rows = append(tab.Rows, r)
	}
	return tab
}

func loc(t *trace.Trace, e *trace.Event) string {
	if e.Loc == 0 {
		return ""
	}
	return t.LocString(e.Loc)
}
