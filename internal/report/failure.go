package report

import (
	"bytes"
	"fmt"

	"github.com/morpheus-go/morpheus/internal/htmlpage"
	"github.com/morpheus-go/morpheus/trace"
)

// failureSection describes the failure and shows its trace.
func failureSection(f *FailureView) ([]htmlpage.Section, error) {
	info := htmlpage.Stats{
		{Label: "kind", Value: f.Kind, Class: "bad"},
		{Label: "task", Value: orDash(f.Task)},
		{Label: "location", Value: orDash(f.Location)},
	}
	if f.Trace != nil {
		steps := htmlpage.Stat{Label: "steps", Value: fmt.Sprint(f.Trace.Steps())}
		if f.OriginalSteps > 0 {
			steps.Label = "steps (shrunk)"
			steps.Value = fmt.Sprintf("%d from %d", f.Trace.Steps(), f.OriginalSteps)
		}
		info = append(info, steps)
	}
	sec := htmlpage.Section{Title: "Failure", ID: "failure", Blocks: []htmlpage.Block{info, htmlpage.Pre(f.Message)}}
	if f.OriginalSteps > 0 && f.Trace != nil {
		sec.Blocks = append(sec.Blocks, htmlpage.Paragraph(fmt.Sprintf("Shrunk from %d to %d steps.", f.OriginalSteps, f.Trace.Steps())))
	}
	out := []htmlpage.Section{sec}
	if f.Trace != nil {
		var b bytes.Buffer
		if err := trace.Render(&b, f.Trace, 0, -1); err != nil {
			return nil, err
		}
		out = append(out, htmlpage.Section{Title: "Trace", ID: "trace", Blocks: []htmlpage.Block{htmlpage.Pre(b.String())}})
	}
	return out, nil
}
