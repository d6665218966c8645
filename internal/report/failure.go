package report

import (
	"fmt"
	"strconv"

	"github.com/morpheus-go/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/trace"
)

// maxTableSteps bounds the rows of the step table: a longer trace shows its
// last maxTableSteps steps.
const maxTableSteps = 2000

// failureSections describe the failure and show its trace.
func failureSections(f *FailureView) []htmlpage.Section {
	info := htmlpage.Stats{
		{Label: "kind", Value: orDash(f.Kind), Class: "bad"},
		{Label: "task", Value: orDash(f.Task)},
		{Label: "location", Value: orDash(f.Location)},
	}
	if f.Trace != nil {
		steps := htmlpage.Stat{Label: "steps", Value: strconv.Itoa(f.Trace.Steps())}
		if f.OriginalSteps > 0 {
			steps = htmlpage.Stat{Label: "steps (shrunk)", Value: fmt.Sprintf("%d from %d", f.Trace.Steps(), f.OriginalSteps), Class: "good"}
		}
		info = append(info, steps)
	}
	sec := htmlpage.Section{Title: "Failure", ID: "failure", Blocks: []htmlpage.Block{info, htmlpage.Pre(f.Message)}}
	if f.OriginalSteps > 0 && f.Trace != nil {
		sec.Blocks = append(sec.Blocks, htmlpage.Paragraph(fmt.Sprintf("Shrunk from %d to %d steps.", f.OriginalSteps, f.Trace.Steps())))
	}
	if f.ShrinkTimedOut {
		sec.Blocks = append(sec.Blocks, htmlpage.Paragraph("Shrinking was stopped by its time budget: on a faster or slower machine the same failure may shrink to a different schedule."))
	}
	if f.Trace == nil {
		return []htmlpage.Section{sec}
	}
	return append([]htmlpage.Section{sec}, traceSections(f.Trace)...)
}

// traceSections show a trace: a sequence diagram, the races that could have
// decided its outcome, and every step.
func traceSections(t *trace.Trace) []htmlpage.Section {
	all := stepsOf(t)
	fail := failureEvent(t, all)
	races, total := decidingRaces(t, fail)
	d := newDiagram(t, all, races, fail)

	diag := htmlpage.Section{Title: "Sequence diagram", ID: "sequence"}
	if len(d.steps) < len(all) {
		diag.Blocks = append(diag.Blocks, htmlpage.Paragraph(fmt.Sprintf("The last %d of %d steps; the table below has more.", len(d.steps), len(all))))
	}
	diag.Blocks = append(diag.Blocks,
		htmlpage.Paragraph("A lane per task, time runs down. Arrows: messages (blue), channel values (green), spawns (dashed). "+
			"✕ crash, ◆ time-out, □ restart; orange steps race with another step the failure depends on (hover a row of the race table to see the pair); the ringed step failed."),
		htmlpage.Raw(d.svg()))

	raceSec := htmlpage.Section{Title: "Races", ID: "races"}
	raceSec.Blocks = append(raceSec.Blocks, htmlpage.Paragraph(racesText(fail >= 0, len(races), total)))
	if len(races) > 0 {
		raceSec.Blocks = append(raceSec.Blocks, racesTable(t, all, races))
	}
	return append([]htmlpage.Section{}, diag, raceSec, htmlpage.Section{Title: "Steps", ID: "steps", Blocks: []htmlpage.Block{stepTable(t, all, d)}})
}

func racesText(hasFail bool, shown, total int) string {
	what := "Pairs of steps of different tasks on the same resource that happens-before leaves unordered: another schedule could run them the other way round."
	if hasFail {
		what += " Only pairs in the causal past of the failing step are listed."
	}
	switch {
	case total == 0:
		return what + " There are none."
	case shown < total:
		return fmt.Sprintf("%s The last %d of %d.", what, shown, total)
	}
	return fmt.Sprintf("%s %d found.", what, total)
}

func racesTable(t *trace.Trace, all []step, races []race) *htmlpage.Table {
	num := make(map[int]int, len(all)) // event -> step number
	for _, s := range all {
		num[s.ev] = s.n
	}
	tab := &htmlpage.Table{Sortable: true, Columns: []htmlpage.Column{
		{Name: "#", Numeric: true}, {Name: "resource", Numeric: true},
		{Name: "step", Numeric: true}, {Name: "task"}, {Name: "op"}, {Name: "location"},
		{Name: "step", Numeric: true}, {Name: "task"}, {Name: "op"}, {Name: "location"},
	}}
	for k, r := range races {
		a, b := &t.Events[r.a], &t.Events[r.b]
		tab.Rows = append(tab.Rows, htmlpage.Row{Ref: "r" + strconv.Itoa(k+1), Cells: []string{
			strconv.Itoa(k + 1), strconv.FormatUint(uint64(a.Res), 10),
			strconv.Itoa(num[r.a]), t.TaskName(a.Task), a.Kind.String(), loc(t, a),
			strconv.Itoa(num[r.b]), t.TaskName(b.Task), b.Kind.String(), loc(t, b),
		}})
	}
	return tab
}

func stepTable(t *trace.Trace, all []step, d *diagram) *htmlpage.Table {
	rows := all
	if len(rows) > maxTableSteps {
		rows = rows[len(rows)-maxTableSteps:]
	}
	tab := &htmlpage.Table{Columns: []htmlpage.Column{
		{Name: "step", Numeric: true}, {Name: "time", Numeric: true}, {Name: "task"}, {Name: "op"}, {Name: "detail"}, {Name: "location"},
	}}
	if len(rows) < len(all) {
		tab.Caption = fmt.Sprintf("The last %d of %d steps", len(rows), len(all))
	}
	for _, s := range rows {
		e := &t.Events[s.ev]
		r := htmlpage.Row{Cells: []string{
			strconv.Itoa(s.n), trace.FormatTime(s.now), t.TaskName(e.Task), e.Kind.String(), t.Detail(e), loc(t, e),
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
