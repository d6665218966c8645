package shapes_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
	"github.com/morpheus-go/morpheus/trace"
)

// An unmodified TCP echo server and client (testdata/echo) run on the
// schedule's in-memory network: the saved trace shows the network ops at
// the package's lines, and since the draws of math/rand come from the
// schedule's seed, the same seed saves the same trace.
func TestEchoUnderControl(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "echo", 20, 3)
	sum := explore(t, cfg)
	echo := find(sum, "TestEcho")
	if echo == nil || echo.Failure != "" || echo.Schedules != 20 {
		t.Fatalf("TestEcho: %+v", echo)
	}
	if len(echo.Foreign) > 0 {
		t.Errorf("foreign channels in TestEcho: %v", echo.Foreign)
	}
	draws := find(sum, "TestEchoDraws")
	if draws == nil || draws.Trace == "" {
		t.Fatalf("TestEchoDraws saved no trace: %+v", draws)
	}
	f, err := os.Open(draws.Trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.Decode(f, draws.Trace)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range tr.Events {
		seen[e.Kind.String()+" "+filepath.Base(tr.LocString(e.Loc))] = true
	}
	for _, want := range []string{"net-listen echo.go:20", "net-dial echo.go:67", "net-accept echo.go:43",
		"net-write echo.go:72", "net-write echo.go:57", "net-close echo.go:71"} {
		if !seen[want] {
			t.Errorf("the trace has no %s: %v", want, seen)
		}
	}
	again, err := driver.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := find(again, "TestEchoDraws"); got == nil || got.Trace != draws.Trace {
		t.Errorf("same seed, another trace: %+v, want %s", got, draws.Trace)
	}
}
