package driver

import "strings"

// A test process runs with -test.v=test2json: package testing then frames
// its output as it does for go test -json, a line starting with the byte
// 0x16 before each test's start ("=== RUN   TestX"), each switch of the
// output from one test to another ("=== NAME  TestX"; "=== NAME" alone for
// the process's own), and each result ("--- FAIL: TestX (0.01s)"). That
// tells which test printed each line, even a line a test printed to
// os.Stdout itself (procout.go indexes it).

// frameByte begins a line of package testing's framing.
const frameByte = "\x16"

// framedTest returns the test a framing line names, "" for the process's
// own output; ok is false for a line that names none (the final "FAIL").
func framedTest(line string) (name string, ok bool) {
	line = strings.TrimRight(line, "\n")
	for _, p := range []string{"=== RUN", "=== CONT", "=== NAME", "=== PAUSE"} {
		if rest, found := strings.CutPrefix(line, p); found {
			return strings.TrimSpace(rest), true
		}
	}
	for _, p := range []string{"--- FAIL:", "--- PASS:", "--- SKIP:"} {
		if rest, found := strings.CutPrefix(strings.TrimSpace(line), p); found {
			name, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
			return name, true
		}
	}
	return "", false
}
