package rt_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// twoFirst counts the child's schedules in which the second sender won.
var twoFirst int

// In counting mode (EnvCount) every schedule runs and Result.Hits counts
// those that failed t, each by its own t.Error: t's failed mark from an
// earlier schedule does not fail the later ones.
func TestCountMode(t *testing.T) {
	if os.Getenv("RT_FATAL_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			ch := rt.Make[chan int](2)
			rt.Go(func() { rt.Send(ch, 1) })
			rt.Go(func() { rt.Send(ch, 2) })
			if rt.Recv(ch) == 2 {
				twoFirst++
				t.Errorf("2 first")
			}
			rt.Recv(ch)
		})
		t.Logf("twoFirst=%d", twoFirst)
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	r, log := child(t, "TestCountMode", rt.EnvCount+"=true", rt.EnvSchedules+"=40", rt.EnvStrategy+"=random")
	if r.Schedules != 40 || r.Hits == 0 || r.Hits == 40 || r.Kind != "assertion" {
		t.Fatalf("schedules %d, hits %d, kind %q:\n%s", r.Schedules, r.Hits, r.Kind, log)
	}
	if want := fmt.Sprintf("twoFirst=%d\n", r.Hits); !strings.Contains(log, want) {
		t.Fatalf("hits %d, but the log does not say %q:\n%s", r.Hits, want, log)
	}
}
