package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/morpheus-go/morpheus/rt"
)

// fakeProcess is a test process (a shell script) that prints size bytes
// of log lines in each of two tests, TestBig, which fails under control
// with a report that says its message is in the test's output, and
// TestReal, which failed on the real network, and exits 1 as a failing
// test binary does.
const fakeProcess = `#!/bin/sh
printf '\026=== RUN   TestBig\n'
printf 'first line of TestBig\n'
yes 'a line TestBig logs, again and again, as a cluster under test does' | head -c %[1]d
printf '\nlast line of TestBig\n'
echo '{"test":"TestBig","schedules":1,"steps":3,"failure":"morpheus: TestBig failed: see the test'"'"'s output","kind":"fatal","trace":"%[2]s"}' >> "$MORPHEUS_RT_OUT"
printf '\026--- FAIL: TestBig (0.01s)\n'
printf '\026=== RUN   TestReal\n'
yes 'a line TestReal logs' | head -c %[1]d
printf '\nlast line of TestReal\n'
echo '{"test":"TestReal","schedules":1,"steps":1,"failure":"morpheus: TestReal failed on the real network","kind":"real","real":"httptest.NewServer"}' >> "$MORPHEUS_RT_OUT"
printf '\026--- FAIL: TestReal (0.01s)\n'
printf '\026=== RUN   TestHugeReport\n'
{ printf '{"test":"TestHugeReport","schedules":1,"steps":9,"kind":"assertion","failure":"morpheus: assertion failure\\nlog:\\n'; yes 'a line TestHugeReport logged in its failing schedule\\n' | head -c %[1]d | tr -d '\n'; printf 'stack:\\n    end of the report"}\n'; } >> "$MORPHEUS_RT_OUT"
printf '\026--- FAIL: TestHugeReport (0.01s)\n'
printf '\026FAIL\n'
exit 1
`

// The driver does not hold its test processes' output: of 2 × 16 MB that
// one process prints and a record of 16 MB (a failure's report with its
// log), its heap grows by half as much at most (8 MB of buffers; holding
// one process's output, 120 MB), the failing test's log beside its
// trace is the whole of what it printed, and the summary holds the head
// and tail of a failure's output outside control and of the long report.
// The run and its heap's measure are in a process of their own, this test
// binary run again for this test alone, where no other test touches the
// heap meanwhile: this test waits for it in parallel with the others,
// which do not wait for it.
func TestOutputNotHeld(t *testing.T) {
	if os.Getenv(outputNotHeldEnv) == "" {
		t.Parallel()
		// (-test.short: TestMain starts no build of rt there.)
		cmd := exec.Command(os.Args[0], "-test.run", "^TestOutputNotHeld$", "-test.count=1", "-test.v", "-test.short")
		cmd.Env = append(os.Environ(), outputNotHeldEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestOutputNotHeld") {
			t.Fatalf("TestOutputNotHeld in a process of its own: %v\n%s", err, out)
		}
		return
	}
	const size = 16 << 20
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin", "fake.test")
	trace := filepath.Join(dir, "trace-big")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte(fmt.Sprintf(fakeProcess, size, trace)), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &PackageSummary{Path: "example.com/fake", Binary: bin, dir: dir}
	cfg := Config{Jobs: 1, Schedules: 1}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	runPackage(context.Background(), cfg, p)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapSys) - int64(before.HeapSys); grew > 3*size/2 {
		t.Errorf("the driver's heap grew by %d MB for %d MB of output and records", grew>>20, 3*size>>20)
	}
	if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > size/2 {
		t.Errorf("the driver holds %d MB after the run", held>>20)
	}
	if p.Err != nil {
		t.Fatalf("package: %v\n%.2000s", p.Err, p.Output)
	}
	var big, real, huge *TestSummary
	for _, ts := range p.Tests {
		switch ts.Name {
		case "TestBig":
			big = ts
		case "TestReal":
			real = ts
		case "TestHugeReport":
			huge = ts
		}
	}
	if big == nil || real == nil || huge == nil {
		t.Fatalf("tests: %+v", p.Tests)
	}
	if n := len(huge.Failure); n > keptHead+keptTail+1000 || !strings.HasPrefix(huge.Failure, "morpheus: assertion failure\nlog:\n") ||
		!strings.HasSuffix(huge.Failure, "stack:\n    end of the report") || !strings.Contains(huge.Failure, "bytes of this text left out]") {
		t.Errorf("TestHugeReport's failure (%d bytes) is not its head and tail: %.300s", n, huge.Failure)
	}
	if big.Log != trace+".log" {
		t.Fatalf("TestBig's log: %q, want %q", big.Log, trace+".log")
	}
	if fi, err := os.Stat(big.Log); err != nil || fi.Size() < size {
		t.Errorf("TestBig's log: %v, %v; want all of its %d bytes", fi, err, size)
	}
	if len(big.Failure) > 1000 {
		t.Errorf("TestBig's failure holds its output: %d bytes", len(big.Failure))
	}
	if n := len(real.Failure); n > keptHead+keptTail+1000 || n < keptTail {
		t.Errorf("TestReal's failure: %d bytes, want its output's head and tail (%d)", n, keptHead+keptTail)
	}
	for _, want := range []string{"=== RUN   TestReal\n", "bytes of this output left out]", "last line of TestReal\n"} {
		if !strings.Contains(real.Failure, want) {
			t.Errorf("TestReal's failure lacks %q", want)
		}
	}
	if strings.Contains(real.Failure, "TestBig") || strings.Contains(real.Failure, frameByte) {
		t.Errorf("TestReal's failure holds another test's output or the framing bytes:\n%.500s", real.Failure)
	}
}

// outputNotHeldEnv is set in the process that runs TestOutputNotHeld's
// measure.
const outputNotHeldEnv = "MORPHEUS_TEST_OUTPUT_NOT_HELD"

// referenceTestOutput is what a test printed, computed on the whole output
// at once: the lines from a framing line naming it (or a subtest of it) to
// the next framing line naming another test, the framing bytes that begin
// lines dropped.
func referenceTestOutput(out, test string) string {
	var b strings.Builder
	mine := false
	for _, line := range strings.SplitAfter(out, "\n") {
		if rest, framed := strings.CutPrefix(line, frameByte); framed {
			line = rest
			if name, ok := framedTest(rest); ok {
				top, _, _ := strings.Cut(name, "/")
				mine = top == test
			}
		}
		if mine {
			b.WriteString(line)
		}
	}
	return b.String()
}

// The index of an output written in pieces of any size gives each test's
// lines as a reading of the whole output does, and its verdicts.
func TestOutputIndex(t *testing.T) {
	t.Parallel()
	out := "\x16=== RUN   TestA\nA says \x16 hello\n\x16=== RUN   TestA/sub\nsub line\n" +
		"\x16=== PAUSE TestB\n\x16=== RUN   TestB\nB line\n\x16=== NAME  TestA\nA again\n" +
		"\x16    --- PASS: TestA/sub (0.00s)\n\x16--- FAIL: TestA (0.01s)\n\x16=== NAME\nprocess line\n" +
		"\x16=== NAME  TestB\nB's last line, unended"
	for _, piece := range []int{1, 3, 7, 64, len(out)} {
		dir := t.TempDir()
		o, err := newProcOutput(filepath.Join(dir, "out"))
		if err != nil {
			t.Fatal(err)
		}
		for s := out; s != ""; {
			k := min(piece, len(s))
			o.Write([]byte(s[:k]))
			s = s[k:]
		}
		for _, test := range []string{"TestA", "TestB", "TestC"} {
			want := referenceTestOutput(out, test)
			var b strings.Builder
			if _, err := o.copyTest(&b, test); err != nil || b.String() != want {
				t.Errorf("pieces of %d: %s's output %q, %v; want %q", piece, test, b.String(), err, want)
			}
		}
		if !o.started("TestA") || !o.ended("TestA") || !o.failedTest("TestA") {
			t.Errorf("pieces of %d: TestA not seen to start and fail", piece)
		}
		if !o.started("TestB") || o.ended("TestB") || o.failedTest("TestA/sub") {
			t.Errorf("pieces of %d: TestB seen to end, or a subtest indexed", piece)
		}
		if got, want := o.plain(), strings.ReplaceAll(out, frameByte, ""); got != want {
			t.Errorf("pieces of %d: plain %q, want %q", piece, got, want)
		}
		o.Close()
	}
}

// The kept head and tail of a long output are its first and last bytes,
// and all of a short one.
func TestKeptWriter(t *testing.T) {
	t.Parallel()
	var short keptWriter
	short.Write([]byte("abc"))
	short.Write([]byte("def"))
	if short.String() != "abcdef" {
		t.Errorf("short: %q", short.String())
	}
	var long keptWriter
	total := 0
	for i := 0; total < 3*(keptHead+keptTail); i++ {
		line := fmt.Sprintf("line %d\n", i)
		long.Write([]byte(line))
		total += len(line)
	}
	got := long.String()
	if !strings.HasPrefix(got, "line 0\nline 1\n") || !strings.HasSuffix(got, "\n") {
		t.Errorf("long: head %q, tail %q", got[:20], got[len(got)-20:])
	}
	skipped := int64(total - keptHead - keptTail)
	if !strings.Contains(got, fmt.Sprintf("[morpheus: %d bytes of this output left out]", skipped)) {
		t.Errorf("long: no note of the %d bytes left out", skipped)
	}
}

// A record's long strings are cut to their head and tail, between two
// characters whatever the escapes and UTF-8 sequences at the cut; short
// lines pass as they are; a line still being written is left unread. (The
// pads are parallel subtests: a megabyte record each, slow under -race.)
func TestCapLines(t *testing.T) {
	t.Parallel()
	unit := "a\"b\\c\né€😀\u0001/"
	for _, pad := range []int{0, 1, 2, 3, 5} {
		t.Run(fmt.Sprint("pad-", pad), func(t *testing.T) {
			t.Parallel()
			capLinesPadded(t, unit, pad)
		})
	}
}

// capLinesPadded is TestCapLines with pad bytes before the record's
// repeated unit.
func capLinesPadded(t *testing.T, unit string, pad int) {
	orig := strings.Repeat("x", pad) + strings.Repeat(unit, (keptHead+keptTail)/len(unit)+50000)
	rec, err := json.Marshal(rt.Result{Test: "TestX", Failure: orig, Schedules: 3})
	if err != nil {
		t.Fatal(err)
	}
	short := `{"test":"TestY","schedules":1}`
	in := short + "\n" + string(rec) + "\n" + short + "\n" + `{"test":"TestZ","fail`
	var got []rt.Result
	n, err := capLines(strings.NewReader(in), func(line []byte) {
		var r rt.Result
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("pad %d: a cut line is no JSON: %v", pad, err)
		}
		if len(line) > keptHead+keptTail+200 {
			t.Errorf("pad %d: a line of %d bytes", pad, len(line))
		}
		got = append(got, r)
	})
	if err != nil || n != int64(len(in)-len(`{"test":"TestZ","fail`)) || len(got) != 3 {
		t.Fatalf("pad %d: %d bytes, %d records, %v", pad, n, len(got), err)
	}
	f := got[1].Failure
	head, tail, ok := strings.Cut(f, "\n[morpheus: ")
	_, tail, _ = strings.Cut(tail, " bytes of this text left out]\n")
	if !ok || !strings.HasPrefix(orig, head) || !strings.HasSuffix(orig, tail) || len(head) < keptHead/2 || len(tail) < keptTail/2 ||
		!utf8.ValidString(f) || got[1].Schedules != 3 || got[0].Test != "TestY" || got[2].Test != "TestY" {
		t.Errorf("pad %d: cut to %d+%d bytes, valid %v, head a prefix %v, tail a suffix %v", pad, len(head), len(tail),
			utf8.ValidString(f), strings.HasPrefix(orig, head), strings.HasSuffix(orig, tail))
	}
}
