package report

import (
	"strconv"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/trace"
)

// keyEventsSection lists the steps to read first (trace.Highlights: crashes,
// restarts, partitions, the hot monitor's last change, the last progress),
// each linked to its mark in the diagram. ok is false when there are none.
func keyEventsSection(t *trace.Trace, d *diagram) (htmlpage.Section, bool) {
	hs := trace.Highlights(t)
	if len(hs) == 0 {
		return htmlpage.Section{}, false
	}
	now := int64(0)
	times := make([]int64, len(t.Events))
	for i := range t.Events {
		if t.Events[i].Kind == trace.KindClock {
			now = t.Events[i].Val
		}
		times[i] = now
	}
	tab := &htmlpage.Table{Columns: []htmlpage.Column{
		{Name: "step", Numeric: true}, {Name: "time", Numeric: true}, {Name: "task"}, {Name: "event"}, {Name: "what happened"},
	}}
	for _, h := range hs {
		r := htmlpage.Row{Cells: []string{
			strconv.Itoa(h.Step), trace.FormatTime(times[h.Event]), t.TaskName(t.Events[h.Event].Task), h.What, h.Text,
		}}
		if _, drawn := d.row[h.Event]; drawn {
			r.Ref = "s" + strconv.Itoa(h.Step)
		}
		tab.Rows = append(tab.Rows, r)
	}
	return htmlpage.Section{Title: "Key events", ID: "key-events", Blocks: []htmlpage.Block{
		htmlpage.Paragraph("The steps to read first: faults, the last change of a monitor still hot at the end, and the last progress before the run repeated one cycle to its end."),
		tab,
	}}, true
}
