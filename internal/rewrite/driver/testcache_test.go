package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// cachedModule is a module whose tests read a file and an environment
// variable, each of which decides whether its test passes.
var cachedModule = map[string]string{
	"go.mod": "module example.com/cached\n\ngo 1.22\n",
	"p/p.go": `package p

// Sum adds what two goroutines send.
func Sum(a, b int) int {
	ch := make(chan int)
	go func() { ch <- a }()
	go func() { ch <- b }()
	return <-ch + <-ch
}
`,
	"p/p_test.go": `package p

import (
	"os"
	"strings"
	"testing"
)

func TestSum(t *testing.T) {
	if Sum(1, 2) != 3 {
		t.Fatal("sum")
	}
}

func TestInput(t *testing.T) {
	b, err := os.ReadFile("testdata/input.txt")
	if err != nil || strings.TrimSpace(string(b)) != "good" {
		t.Fatalf("input %q, %v", b, err)
	}
}

func TestEnv(t *testing.T) {
	if os.Getenv("CACHED_MODE") == "fail" {
		t.Fatal("CACHED_MODE=fail")
	}
}
`,
	"p/testdata/input.txt": "good\n",
}

// A second run of the same binary, settings and inputs shows the first
// run's outcome, failures too, and runs nothing; a changed input file, an
// environment variable a test read, another setting, a changed corpus or
// Rerun runs the package again.
func TestCachedOutcome(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	t.Parallel()
	dir := t.TempDir()
	for name, text := range cachedModule {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CACHED_MODE=pass")
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Cache: t.TempDir(), Env: env, Vet: "off",
		Schedules: 5, Jobs: 2, Corpus: true}
	run := func(why string, cfg Config, cached bool, failing ...string) *PackageSummary {
		t.Helper()
		var finished []string
		cfg.Finished = func(_ *PackageSummary, ts *TestSummary) { finished = append(finished, ts.Name) }
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", why, err)
		}
		p := sum.Packages[0]
		if p.Err != nil {
			t.Fatalf("%s: %v\n%s", why, p.Err, p.Output)
		}
		if p.Cached != cached {
			t.Fatalf("%s: cached %v, want %v", why, p.Cached, cached)
		}
		if len(p.Tests) != 3 || len(finished) != 3 {
			t.Fatalf("%s: %d tests, %d finished: %+v", why, len(p.Tests), len(finished), p.Tests)
		}
		want := map[string]bool{}
		for _, f := range failing {
			want[f] = true
		}
		for _, ts := range p.Tests {
			if ts.Cached != cached {
				t.Errorf("%s: %s cached %v, want %v", why, ts.Name, ts.Cached, cached)
			}
			if (ts.Failure != "") != want[ts.Name] {
				t.Errorf("%s: %s failure %q, want failing %v", why, ts.Name, ts.Kind, want[ts.Name])
			}
			if ts.Schedules == 0 {
				t.Errorf("%s: %s ran no schedule", why, ts.Name)
			}
		}
		return p
	}
	run("first run", cfg, false)
	run("nothing changed", cfg, true)
	rerun := cfg
	rerun.Rerun = true
	run("Rerun", rerun, false)
	other := cfg
	other.Schedules = 6
	run("other settings", other, false)
	run("back to the first settings", cfg, true)

	input := filepath.Join(dir, "p", "testdata", "input.txt")
	if err := os.WriteFile(input, []byte("bad\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("the input file changed", cfg, false, "TestInput")
	p := run("nothing changed since the failure", cfg, true, "TestInput")
	if f := find1(p, "TestInput"); f.Kind != "assertion" || f.Trace == "" {
		t.Errorf("cached failure: kind %q, trace %q", f.Kind, f.Trace)
	}

	if err := os.RemoveAll(filepath.Join(dir, "p", "testdata", "morpheus")); err != nil {
		t.Fatal(err)
	}
	run("the corpus changed", cfg, false, "TestInput")
	if err := os.WriteFile(input, []byte("good\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	envFail := cfg
	envFail.Env = append(env[:len(env):len(env)], "CACHED_MODE=fail")
	run("an environment variable the test read changed", envFail, false, "TestEnv")
}

func find1(p *PackageSummary, name string) *TestSummary {
	for _, t := range p.Tests {
		if t.Name == name {
			return t
		}
	}
	return &TestSummary{}
}
