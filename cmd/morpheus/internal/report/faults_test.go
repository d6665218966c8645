package report

import (
	"os"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// A fault decision reads as what it did in the step table, the sequence
// diagram's labels and its tooltips, never as a bare choice.
func TestFaultDecisions(t *testing.T) {
	f, err := os.Open("../../../../trace/testdata/faults.trace")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.Decode(f, "faults.trace")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, failingData(tr)); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		"<td>drop → backup@b replicate 2</td>",         // step table
		`dy="0.32em">drop → backup@b`,                  // diagram label
		"primary@p choose drop → backup@b replicate 2", // tooltip
		"duplicate → backup@b", "delay → backup@b", "deliver → backup@b",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, bare := range []string{"choose = 12", "= 731", "= 250"} {
		if strings.Contains(html, bare) {
			t.Errorf("the report shows a fault decision as %q", bare)
		}
	}
}
