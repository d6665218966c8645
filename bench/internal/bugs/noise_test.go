package bugs_test

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/bugs"
	"github.com/morpheus-go/morpheus/trace"
)

// The background adds many ops that never race and changes no outcome: the
// fixed variants still pass, the bugs are still found, and the added ops
// appear in the trace.
func TestBackground(t *testing.T) {
	for _, sc := range []bugs.Scenario{bugs.GProc1(), bugs.Storage()} {
		bg := bugs.WithBackground(sc, 4, 10, 10*time.Millisecond)
		if bg.Name != sc.Name+"+bg4" {
			t.Fatalf("name %q", bg.Name)
		}
		t.Run(bg.Name, func(t *testing.T) {
			fixed, err := morpheus.Explore(bg.Test(true), append([]morpheus.Option{morpheus.Name(bg.Name),
				morpheus.Strategy("pos"), morpheus.Iterations(300), morpheus.Seed(3)}, bg.Options...)...)
			if err != nil {
				t.Fatal(err)
			}
			if fixed.Failure != nil {
				t.Fatalf("fixed variant failed with the background:\n%s", fixed.Failure.Report())
			}
			plain, err := morpheus.Explore(sc.Test(true), append([]morpheus.Option{morpheus.Name(sc.Name),
				morpheus.Strategy("pos"), morpheus.Iterations(300), morpheus.Seed(3)}, sc.Options...)...)
			if err != nil {
				t.Fatal(err)
			}
			if fixed.Steps < plain.Steps+300*4*10*4 {
				t.Fatalf("background added too few steps: %d with, %d without", fixed.Steps, plain.Steps)
			}
			buggy, err := morpheus.Explore(bg.Test(false), append([]morpheus.Option{morpheus.Name(bg.Name),
				morpheus.Strategy("pos+ca"), morpheus.Iterations(3000), morpheus.Seed(1)}, bg.Options...)...)
			if err != nil {
				t.Fatal(err)
			}
			f := buggy.Failure
			if f == nil || !bg.Hit(f.Kind, f.Message) {
				t.Fatalf("bug not found with the background: %v", f)
			}
			pings := 0
			for _, ev := range f.Trace.Events {
				if ev.Kind == trace.KindSend && f.Trace.Tasks[ev.Task].Name == "pinger@bg0-c" {
					pings++
				}
			}
			if pings == 0 {
				t.Fatalf("no background ping in the failing trace")
			}
		})
	}
}
