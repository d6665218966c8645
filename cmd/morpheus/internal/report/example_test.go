package report_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/report"
	"github.com/morpheus-go/morpheus/trace"
)

// The report of a run that failed: its figures, coverage curve and failing
// trace, as one HTML page.
func ExampleWrite() {
	f, err := os.Open("testdata/storage.trace")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.Decode(f, "storage.trace")
	if err != nil {
		log.Fatal(err)
	}
	fail := tr.Header.Failure
	data := &report.Data{
		Test: tr.Header.Test, Strategy: tr.Header.Strategy, Seed: 12345,
		Iterations: 18, Failures: 1, Steps: 270, Elapsed: 30 * time.Millisecond,
		Coverage: []report.CoveragePoint{{Iteration: 1, PartialOrders: 1}, {Iteration: 18, PartialOrders: 11}},
		Failure: &report.FailureView{
			Kind: fail.Kind, Message: fail.Message, Task: tr.TaskName(fail.Task), Location: fail.Loc,
			Trace: tr,
		},
	}
	var b bytes.Buffer
	if err := report.Write(&b, data); err != nil {
		log.Fatal(err)
	}
	out := b.String()
	fmt.Println("lanes:", strings.Count(out, `<g class="lane"`))
	fmt.Println("message arrows:", strings.Count(out, `class="arrow msg"`))
	fmt.Println("crashes:", strings.Count(out, `<path class="crash"`))
	// Output:
	// lanes: 5
	// message arrows: 1
	// crashes: 1
}
