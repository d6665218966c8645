package kv_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/systems/kv"
)

// Markers of porcupine's HTML visualisation.
var htmlMarkers = []string{"<!doctype html>", "<title>Porcupine</title>", "const data = ", "render(data)", `get(\"`}

func checkHTML(t *testing.T, html []byte) {
	t.Helper()
	if len(html) == 0 {
		t.Fatal("empty visualisation")
	}
	for _, m := range htmlMarkers {
		if !strings.Contains(string(html), m) {
			t.Errorf("visualisation lacks %q", m)
		}
	}
}

// Reads from the backup are not linearizable: morpheus finds a history that
// shows it, and porcupine's visualisation comes with the failure.
func TestFindsStaleRead(t *testing.T) {
	start := time.Now()
	res, err := morpheus.Explore(kv.Test(kv.Config{BackupReads: true}),
		morpheus.Name(t.Name()), morpheus.Iterations(50000), morpheus.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "assertion" || !strings.HasPrefix(f.Message, "linearizability: 9 operations of 3 clients are not linearizable") {
		t.Fatalf("stale read not found in %d iterations: %v", res.Iterations, f)
	}
	if len(f.Attachments) != 1 || f.Attachments[0].Name != "linearizability.html" {
		t.Fatalf("attachments: %v", f.Attachments)
	}
	checkHTML(t, f.Attachments[0].Data)
	t.Logf("found in iteration %d (%v):\n%s", f.Iteration, time.Since(start).Round(time.Millisecond), f.Report())
}

// Other strategies find it sooner than random (TestFindsStaleRead).
func TestStrategies(t *testing.T) {
	for _, s := range []string{"pos", "pct:3", "rapos"} {
		res, err := morpheus.Explore(kv.Test(kv.Config{BackupReads: true}),
			morpheus.Name(t.Name()), morpheus.Strategy(s), morpheus.Iterations(50000), morpheus.Seed(2))
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Failure; f == nil || !strings.HasPrefix(f.Message, "linearizability: ") {
			t.Fatalf("%s: not found: %v", s, f)
		} else {
			t.Logf("%s: iteration %d", s, f.Iteration)
		}
	}
}

// Reading only from the primary is linearizable, also when the network loses
// messages and operations stay pending.
func TestFixedPasses(t *testing.T) {
	for _, cfg := range []kv.Config{{}, {Drops: 2}} {
		t.Run(fmt.Sprintf("drops=%d", cfg.Drops), func(t *testing.T) {
			morpheus.Check(t, kv.Test(cfg), morpheus.Iterations(3000), morpheus.Verbose(1))
		})
	}
}

// recorder is a testing.TB that records what Check reports.
type recorder struct {
	testing.TB
	name   string
	errors []string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	panic("Fatalf")
}

// Through morpheus.Check, the visualisation lands beside the saved trace, and
// the saved trace fails again on the next run.
func TestAttachmentBesideTrace(t *testing.T) {
	t.Chdir(t.TempDir())
	rec := &recorder{TB: t, name: "TestKV"}
	morpheus.Check(rec, kv.Test(kv.Config{BackupReads: true}), morpheus.Strategy("pos"), morpheus.Iterations(50000))
	if len(rec.errors) != 1 {
		t.Fatalf("errors: %q", rec.errors)
	}
	report := rec.errors[0]
	saved := regexp.MustCompile(`\ntrace saved: (\S+)\n`).FindStringSubmatch(report)
	att := regexp.MustCompile(`\nattachment: (\S+)\n`).FindStringSubmatch(report)
	if saved == nil || att == nil || !strings.Contains(report, "linearizability: 9 operations") {
		t.Fatalf("report:\n%s", report)
	}
	if att[1] != saved[1]+".linearizability.html" {
		t.Fatalf("attachment %s is not beside the trace %s", att[1], saved[1])
	}
	html, err := os.ReadFile(att[1])
	if err != nil {
		t.Fatal(err)
	}
	checkHTML(t, html)

	again := &recorder{TB: t, name: "TestKV"}
	morpheus.Check(again, kv.Test(kv.Config{BackupReads: true}), morpheus.Iterations(0))
	if len(again.errors) != 1 || !strings.Contains(again.errors[0], "still fails") || !strings.Contains(again.errors[0], "linearizability: ") {
		t.Fatalf("corpus replay: %q", again.errors)
	}
}
