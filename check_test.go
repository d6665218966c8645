package morpheus_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
)

// recorder is a testing.TB that records what Check reports.
type recorder struct {
	testing.TB
	name   string
	errors []string
	logs   []string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	panic("Fatalf")
}

func buggyOrFixed(fixed bool) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		main := e.Self()
		first := ""
		for _, name := range []string{"a", "b"} {
			n.Spawn(name, func(e *morpheus.Env) {
				if first == "" || fixed {
					first = name
				}
				e.Send(main, name)
			})
		}
		got := morpheus.Recv[string](e)
		morpheus.Recv[string](e)
		if !fixed {
			e.Assert(got == first, "first writer %s, first message from %s", first, got)
		}
	}
}

// Check saves a failing trace and reports how to replay it; the next run
// replays the saved trace first and fails on it at once; once the bug is
// fixed the saved trace passes.
func TestCheckCorpus(t *testing.T) {
	t.Chdir(t.TempDir())
	rec := &recorder{TB: t, name: "TestOrder/sub case"}
	morpheus.Check(rec, buggyOrFixed(false), morpheus.Iterations(500))
	if len(rec.errors) != 1 {
		t.Fatalf("errors: %q", rec.errors)
	}
	report := rec.errors[0]
	m := regexp.MustCompile(`replay: go test -run '\^TestOrder\$/\^sub case\$' -morpheus.replay=(testdata/morpheus/TestOrder/sub_case/[0-9a-f]{16})\n`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("report lacks the replay command:\n%s", report)
	}
	for _, want := range []string{"morpheus: assertion failure in TestOrder/sub case", "main at check_test.go:", "first writer", "seed 0x", "\ntrace:\n", "b@n1  send   → main b"} {
		if !strings.Contains(report, want) {
			t.Fatalf("report lacks %q:\n%s", want, report)
		}
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Fatal(err)
	}

	again := &recorder{TB: t, name: rec.name}
	morpheus.Check(again, buggyOrFixed(false), morpheus.Iterations(0))
	if len(again.errors) != 1 || !strings.Contains(again.errors[0], "saved trace "+filepath.FromSlash(m[1])+" still fails") {
		t.Fatalf("corpus replay: %q", again.errors)
	}

	fixed := &recorder{TB: t, name: rec.name}
	morpheus.Check(fixed, buggyOrFixed(true), morpheus.Iterations(300))
	if len(fixed.errors) != 0 {
		t.Fatalf("fixed: %q", fixed.errors)
	}
}

// A corrupt corpus file is reported with its line, and does not stop Check
// from reporting it.
func TestCheckCorruptCorpus(t *testing.T) {
	t.Chdir(t.TempDir())
	dir := filepath.Join("testdata", "morpheus", "TestX")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad"), []byte("morpheus-trace 99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{TB: t, name: "TestX"}
	morpheus.Check(rec, buggyOrFixed(true), morpheus.Iterations(10))
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], filepath.Join(dir, "bad")+":1") {
		t.Fatalf("errors: %q", rec.errors)
	}
}

// MORPHEUS_* variables override options; bad values are reported clearly.
func TestCheckEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("MORPHEUS_ITERATIONS", "7")
	t.Setenv("MORPHEUS_VERBOSE", "1")
	rec := &recorder{TB: t, name: "TestEnv"}
	morpheus.Check(rec, buggyOrFixed(true), morpheus.Iterations(1000))
	if len(rec.logs) == 0 || !strings.HasPrefix(rec.logs[0], "morpheus: 7 iterations") {
		t.Fatalf("logs: %q", rec.logs)
	}
	t.Setenv("MORPHEUS_ITERATIONS", "many")
	bad := &recorder{TB: t, name: "TestEnv"}
	func() {
		defer func() { recover() }()
		morpheus.Check(bad, buggyOrFixed(true))
	}()
	if len(bad.errors) != 1 || !strings.Contains(bad.errors[0], `MORPHEUS_ITERATIONS="many": expected a non-negative integer`) {
		t.Fatalf("errors: %q", bad.errors)
	}
}

// A systematic strategy says when it has explored every schedule.
func TestCheckExhausted(t *testing.T) {
	t.Chdir(t.TempDir())
	rec := &recorder{TB: t, name: "TestSmall"}
	morpheus.Check(rec, func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		main := e.Self()
		for range 2 {
			n.Spawn("w", func(e *morpheus.Env) { e.Send(main, 1) })
		}
		morpheus.Recv[int](e)
		morpheus.Recv[int](e)
	}, morpheus.Strategy("dfs"), morpheus.Iterations(100000))
	if len(rec.errors) != 0 || len(rec.logs) != 1 || !regexp.MustCompile(`^morpheus: all \d+ schedules explored, no failure \(strategy dfs\)$`).MatchString(rec.logs[0]) {
		t.Fatalf("errors %q logs %q", rec.errors, rec.logs)
	}
}

// Attachments of a failing iteration are written beside its saved trace, and
// the corpus does not mistake them for traces.
func TestCheckAttachments(t *testing.T) {
	t.Chdir(t.TempDir())
	test := func(e *morpheus.Env) {
		e.Attach("note.txt", []byte("evidence"))
		e.Fatalf("failed with evidence")
	}
	rec := &recorder{TB: t, name: "TestAttach"}
	morpheus.Check(rec, test, morpheus.Iterations(3))
	m := regexp.MustCompile(`attachment: (\S+\.note\.txt)\n`).FindStringSubmatch(strings.Join(rec.errors, ""))
	if m == nil {
		t.Fatalf("no attachment in %q", rec.errors)
	}
	if b, err := os.ReadFile(m[1]); err != nil || string(b) != "evidence" {
		t.Fatalf("attachment %q: %v", b, err)
	}
	again := &recorder{TB: t, name: "TestAttach"}
	morpheus.Check(again, test, morpheus.Iterations(3))
	if len(again.errors) != 1 || !strings.Contains(again.errors[0], "still fails") {
		t.Fatalf("%q", again.errors)
	}
}
