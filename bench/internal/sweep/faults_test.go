package sweep_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/sweep"
	"github.com/morpheus-go/morpheus/trace"
)

// The failure of faults/replication-only is a lost replication, decided by
// a fault decision that names it; the client's traffic takes no decision;
// the trace replays byte for byte.
func TestReplicationOnly(t *testing.T) {
	src, err := sweep.Lookup("faults/replication-only")
	if err != nil {
		t.Fatal(err)
	}
	res, err := morpheus.Explore(src.Test, append(src.Options, morpheus.Iterations(200), morpheus.Seed(3))...)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "liveness" {
		t.Fatalf("failure %+v; want liveness", f)
	}
	tr := f.Trace
	drops := 0
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Kind != trace.KindChoose {
			continue
		}
		if from, to := tr.TaskName(e.Task), tr.TaskName(e.Obj); strings.Contains(from+to, "client") || e.Flag&trace.FlagFault == 0 {
			t.Errorf("choice %s %s: want fault decisions among the servers only", from, tr.Detail(e))
		}
		if trace.FaultOutcome(e) == "drop" {
			drops++
		}
	}
	if drops != 1 {
		t.Errorf("%d drops; want the one lost replication", drops)
	}
	path := filepath.Join(t.TempDir(), "trace")
	if err := morpheus.WriteTrace(path, tr); err != nil {
		t.Fatal(err)
	}
	rep, err := morpheus.Explore(src.Test, append(src.Options, morpheus.Replay(path))...)
	if err != nil || rep.Failure == nil {
		t.Fatalf("replay: %v, %+v", err, rep)
	}
	if a, b := encode(t, tr), encode(t, rep.Failure.Trace); !bytes.Equal(a, b) {
		t.Fatalf("the replay's trace differs:\n%s\nwant:\n%s", b, a)
	}
}

// encode is tr in the file format, without the header lines a replay
// legitimately changes.
func encode(t *testing.T, tr *trace.Trace) []byte {
	t.Helper()
	c := *tr
	c.Header = trace.Header{Version: tr.Header.Version, Failure: tr.Header.Failure}
	var b bytes.Buffer
	if err := trace.Encode(&b, &c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
