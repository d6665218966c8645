package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// morpheus report TRACE writes into the current directory, named after the
// test and the trace, never beside the trace (a package's testdata, the
// corpus), and prints the path; -o writes where it says.
func TestReportWritesWhereTheUserIs(t *testing.T) {
	data, err := os.ReadFile("internal/report/testdata/bugA.trace")
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(t.TempDir(), "testdata", "morpheus", "TestBugA")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(corpus, "0123456789abcdef")
	if err := os.WriteFile(trace, data, 0o644); err != nil {
		t.Fatal(err)
	}
	test := testOfTrace(t, trace)
	t.Chdir(t.TempDir())
	var stdout, stderr strings.Builder
	if err := runReport([]string{trace}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, &stderr)
	}
	want := fileName(test) + "-0123456789abcdef.html"
	if stdout.String() != "report: "+want+"\n" {
		t.Errorf("printed %q, want report: %s", stdout.String(), want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Errorf("no report in the current directory: %v", err)
	}
	if entries, _ := os.ReadDir(corpus); len(entries) != 1 {
		t.Errorf("the trace's directory holds %d files, want the trace alone", len(entries))
	}
	stdout.Reset()
	out := filepath.Join(t.TempDir(), "bug.html")
	if err := runReport([]string{"-o", out, trace}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, &stderr)
	}
	if _, err := os.Stat(out); err != nil || stdout.String() != "report: "+out+"\n" {
		t.Errorf("-o %s: %v, printed %q", out, err, stdout.String())
	}
}

func TestReportName(t *testing.T) {
	for _, c := range []struct{ path, test, want string }{
		{"a/testdata/morpheus/TestX/0123", "TestX", "TestX-0123.html"},
		{"/tmp/traces/TestX-0123", "TestX", "TestX-0123.html"},
		{"bug.trace", "TestX/sub case", "TestX_sub_case-bug.trace.html"},
		{"bug.trace", "", "bug.trace.html"},
	} {
		if got := reportName(c.path, c.test); got != c.want {
			t.Errorf("reportName(%s, %s) = %s, want %s", c.path, c.test, got, c.want)
		}
	}
}

func testOfTrace(t *testing.T, path string) string {
	t.Helper()
	tr, err := readTraceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Header.Test
}
