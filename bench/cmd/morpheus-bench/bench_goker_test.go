package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeGoBench writes a GoBench-shaped checkout with kernels of this test's
// own (not GoBench's): fake_1 deadlocks on every schedule, fake_2 passes,
// fake_3 does not build.
func fakeGoBench(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"gobench/configures/goker/blocking.json": `{"fake_1": {"type": "Communication Deadlock", "subtype": "Channel"},
			"fake_3": {"type": "Resource Deadlock", "subtype": "Double locking"}}`,
		"gobench/configures/goker/nonblocking.json": `{"fake_2": {"type": "Traditional", "subtype": "Data race"}}`,
		"gobench/goker/blocking/fake/1/fake1_test.go": `package fake1

import (
	"sync"
	"testing"
)

func TestFake1(t *testing.T) {
	var mu sync.Mutex
	ch := make(chan int)
	go func() {
		mu.Lock()
		ch <- 1
		mu.Unlock()
	}()
	mu.Lock()
	<-ch
	mu.Unlock()
}
`,
		"gobench/goker/blocking/fake/1/README.md": "## Description\n\nThe goroutine holds mu from line 12 and sends at line 13; " +
			"the test locks mu at line 16 or receives at line 17.\n",
		"gobench/goker/nonblocking/fake/2/fake2_test.go": `package fake2

import (
	"sync"
	"testing"
)

func TestFake2(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatalf("n = %d", n)
	}
}
`,
		"gobench/goker/blocking/fake/3/fake3_test.go": `package fake3

import "testing"

func TestFake3(t *testing.T) { undefined() }
`,
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

type gokerJSONOut struct {
	Kernels []struct {
		Name       string   `json:"name"`
		Type       string   `json:"type"`
		Found      bool     `json:"found"`
		Kind       string   `json:"kind"`
		Schedules  int      `json:"schedules"`
		Seconds    float64  `json:"seconds"`
		Subtype    string   `json:"subtype"`
		Replays    *bool    `json:"replays"`
		Error      string   `json:"error"`
		GoTest     *bool    `json:"go_test"`
		GoTestKind string   `json:"go_test_kind"`
		GoTestRace *bool    `json:"go_test_race"`
		GoRace     *bool    `json:"go_race_under_control"`
		Location   string   `json:"location"`
		Goroutines []string `json:"goroutines"`
		Readme     []int    `json:"readme_lines"`
		AtReadme   *bool    `json:"at_readme_lines"`
	} `json:"kernels"`
	FoundBlocking    *int `json:"found_blocking"`
	FoundNonblocking *int `json:"found_nonblocking"`
}

// runGokerCLI runs morpheus bench goker: in this process, or, with built,
// as the command built once (cliBinary), which rewrites without the race
// detector.
func runGokerCLI(t *testing.T, built bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if built {
		return runCLI(t, append([]string{"bench", "goker"}, args...)...)
	}
	var out, errb bytes.Buffer
	code = run(append([]string{"bench", "goker"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestBenchGokerFake(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds rewritten test binaries")
	}
	root := fakeGoBench(t)
	// The checkout's root, as JSON, with the baseline.
	code, stdout, stderr := runGokerCLI(t, true, "-dir", root, "-run", "fake_[12]", "-schedules", "50", "-json", "-baseline", "1", "-timeout", "2s", "-race")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var out gokerJSONOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if out.FoundBlocking == nil || *out.FoundBlocking != 1 || out.FoundNonblocking == nil || *out.FoundNonblocking != 0 || len(out.Kernels) != 2 {
		t.Fatalf("totals or kernels wrong:\n%s", stdout)
	}
	k1, k2 := out.Kernels[0], out.Kernels[1]
	if k1.Name != "fake_1" || k1.Type != "blocking" || !k1.Found || k1.Kind != "deadlock" || k1.Schedules < 1 ||
		k1.Subtype != "Channel" || k1.Replays == nil || !*k1.Replays || k1.Error != "" {
		t.Errorf("fake_1: %+v", k1)
	}
	// The find's line and goroutines, beside the lines its README names.
	if !regexp.MustCompile(`^fake1_test\.go:1[2367]$`).MatchString(k1.Location) || len(k1.Goroutines) != 2 ||
		fmt.Sprint(k1.Readme) != "[12 13 16 17]" || k1.AtReadme == nil || !*k1.AtReadme {
		t.Errorf("fake_1's find against its README: %+v", k1)
	}
	// Go's "all goroutines are asleep" needs no pending timer: the test
	// binary's -test.timeout is one, so the deadlock is a hang it ends.
	if k1.GoTest == nil || !*k1.GoTest || (k1.GoTestKind != "hang" && k1.GoTestKind != "deadlock") || k1.GoTestRace == nil || !*k1.GoTestRace {
		t.Errorf("fake_1 under go test: %+v", k1)
	}
	if k2.Name != "fake_2" || k2.Type != "non-blocking" || k2.Found || k2.Schedules != 50 || k2.Replays != nil ||
		k2.GoTest == nil || *k2.GoTest || k2.GoTestRace == nil || *k2.GoTestRace || k2.Error != "" {
		t.Errorf("fake_2: %+v", k2)
	}

	for _, k := range out.Kernels {
		if k.GoRace == nil || *k.GoRace {
			t.Errorf("%s: Go's race detector under control: %v", k.Name, k.GoRace)
		}
	}

	// The goker folder, as a table, with a kernel that does not build (in
	// the one group of -jobs 1, whose other kernels it does not stop).
	code, stdout, stderr = runGokerCLI(t, true, "-dir", filepath.Join(root, "gobench", "goker"), "-schedules", "20", "-jobs", "1")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		`(?m)^fake_1 +blocking +Communication Deadlock +Channel +yes +deadlock +fake1_test.go:1[2367] +12,13,16,17 \(at\) +[1-9]`,
		`(?m)^fake_3 +blocking +Resource Deadlock +Double locking +error +- +- +- +0 .*goker/blocking/fake/3 does not build as written`,
		`(?m)^fake_2 +non-blocking +Traditional +Data race +no +- +- +- +20 `,
		`(?m)^morpheus +blocking 1 of 2, non-blocking 0 of 1 `,
		`(?m)^  errors +1$`,
		`(?m)^  replays +1 of 1 found$`,
		`goleak 43, go-deadlock 28, dingo-hunter 1 of 68 blocking`,
		`go test -race 32 of 35 non-blocking`,
		`(?m)^Errors\nfake_3:\n\tgoker/blocking/fake/3 does not build as written \(nor under go test\):\n\tblocking/fake/3/fake3_test.go:5:32: undefined: undefined$`,
	} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("the table lacks %s:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, os.TempDir()) {
		t.Errorf("the table names the temporary module:\n%s", stdout)
	}
	if i, j := strings.Index(stdout, "fake_3"), strings.Index(stdout, "fake_2"); i < 0 || j < 0 || i > j {
		t.Errorf("not sorted by type then name:\n%s", stdout)
	}
}

func TestBenchGokerNotACheckout(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "gobench", "goker", "blocking"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runGokerCLI(t, false, "-dir", dir)
	if code != 1 || !strings.Contains(stderr, "is not a GoBench checkout") || !strings.Contains(stderr, "goker/{blocking,nonblocking}/<project>/<id>/") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	// The kernel folders without the configure files.
	if err := os.MkdirAll(filepath.Join(dir, "gobench", "goker", "nonblocking"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runGokerCLI(t, false, "-dir", dir)
	if code != 1 || !strings.Contains(stderr, "missing "+filepath.Join(dir, "gobench", "configures", "goker", "blocking.json")) {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	// -run matching nothing.
	code, _, stderr = runGokerCLI(t, false, "-dir", fakeGoBench(t), "-run", "^nothing$")
	if code != 1 || !strings.Contains(stderr, "no kernel") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
}

// A README names lines in its description and in its backtrace's frames.
func TestReadmeLines(t *testing.T) {
	dir := t.TempDir()
	readme := "## Description\n\nLine 161 holds mutex at 158; lines 30, 31 and 40 wait.\n\n## Backtrace\n\n```\n" +
		"goroutine 5 [chan send]:\nx.(*b).Up.func2()\n\t/root/goker/blocking/x/1/x1_test.go:162 +0x85\n```\n"
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	got := readmeLines(dir)
	if fmt.Sprint(got) != "[30 31 40 161 162]" {
		t.Errorf("readmeLines = %v", got)
	}
	lines := findLines("x1_test.go:162", []string{"g2: blocked in chan-send at x1_test.go:162", "main: blocked in lock at x1_test.go:172"})
	if fmt.Sprint(lines) != "[162 172]" {
		t.Errorf("findLines = %v", lines)
	}
	if m := readmeMatch(got, lines); m == nil || !*m {
		t.Errorf("a find at line 162 is not at the README's lines")
	}
	if m := readmeMatch(got, []int{90}); m == nil || *m {
		t.Errorf("a find at line 90 is at the README's lines")
	}
	if readmeMatch(nil, lines) != nil || readmeLines(filepath.Join(dir, "none")) != nil {
		t.Errorf("no README, or one naming no line, tells nothing")
	}
}
