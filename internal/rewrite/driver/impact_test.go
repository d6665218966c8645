package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// editedModule's tests execute different functions of its package: Add
// (TestAdd), Mul in a goroutine (TestMul), build, run by a package-level
// variable's initialiser before any test (every test), nothing (TestFail,
// which fails).
var editedModule = map[string]string{
	"go.mod": "module example.com/edited\n\ngo 1.22\n",
	"p/arith.go": `package p

func Add(a, b int) int {
	return a + b
}

func Mul(a, b int) int {
	return a * b
}

// Spawn runs f in a goroutine and waits for it.
func Spawn(f func()) {
	done := make(chan bool)
	go func() { f(); done <- true }()
	<-done
}
`,
	"p/table.go": `package p

var Table = build()

func build() []int { return []int{1, 2, 3} }
`,
	"p/p_test.go": `package p

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("add")
	}
}

func TestMul(t *testing.T) {
	var r int
	Spawn(func() { r = Mul(2, 3) })
	if r != 6 {
		t.Fatal("mul")
	}
}

func TestTable(t *testing.T) {
	if len(Table) != 3 {
		t.Fatal("table")
	}
}

func TestFail(t *testing.T) {
	t.Fatal("always")
}
`,
}

// After an edit of function bodies alone, a test that executed none of
// them keeps its outcome and the others run: a body a test executed (in a
// goroutine, or before every test) reruns it; a body no test executed
// keeps them all but the failing one; a line added moves the functions
// below it; a change of another declaration runs every test.
func TestEditedBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	t.Parallel()
	dir := t.TempDir()
	for name, text := range editedModule {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Cache: t.TempDir(), Env: env, Vet: "off",
		Schedules: 4, Jobs: 2, Corpus: true}
	edit := func(file, old, new string) {
		t.Helper()
		path := filepath.Join(dir, "p", file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s holds no %q", file, old)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(why string, cached ...string) {
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
		if len(p.Tests) != 4 || len(finished) != 4 {
			t.Fatalf("%s: %d tests, %d finished: %+v", why, len(p.Tests), len(finished), p.Tests)
		}
		for _, ts := range p.Tests {
			if want := slices.Contains(cached, ts.Name); ts.Cached != want {
				t.Errorf("%s: %s cached %v, want %v", why, ts.Name, ts.Cached, want)
			}
			if (ts.Failure != "") != (ts.Name == "TestFail") {
				t.Errorf("%s: %s failure %q", why, ts.Name, ts.Failure)
			}
			if ts.Schedules == 0 {
				t.Errorf("%s: %s ran no schedule", why, ts.Name)
			}
		}
		if p.Cached != (len(cached) == 4) {
			t.Errorf("%s: package cached %v", why, p.Cached)
		}
	}
	run("first run")
	edit("arith.go", "return a * b", "return b * a")
	run("Mul's body, which TestMul's goroutine executed", "TestAdd", "TestTable")
	run("nothing changed since", "TestAdd", "TestMul", "TestTable", "TestFail")
	edit("arith.go", "go func() { f(); done <- true }()", "go func() { f(); done <- !false }()")
	run("a closure's body, of Spawn's", "TestAdd", "TestTable")
	edit("table.go", "return []int{1, 2, 3}", "return []int{3, 2, 1}")
	run("build's body, which ran before every test")
	edit("arith.go", "return a + b", "c := a + b\n\treturn c")
	run("a line added in Add: Mul and Spawn moved", "TestTable")
	edit("table.go", "var Table = build()", "var Table = build()\n\nconst unused = 1")
	run("a declaration added")
}

// A test that runs its own binary or the go command again runs code whose
// marks its process does not see: its package runs every test.
func TestStartsItself(t *testing.T) {
	for _, c := range []struct {
		log  string
		want bool
	}{
		{"getenv HOME\nopen /m/p/testdata/x\n", false},
		{"open /cache/p.test\n", true},                                   // os.StartProcess of os.Args[0]
		{"stat /usr/local/go/bin/go\nopen /usr/local/go/bin/go\n", true}, // exec.Command("go", ...)
		{"open /usr/bin/git\n", false},
	} {
		if got := startsItself(c.log, "/cache/p.test"); got != c.want {
			t.Errorf("%q: %v, want %v", c.log, got, c.want)
		}
	}
}

// Two declaration tables differ in bodies only, or say what else changed.
func TestChangedBodies(t *testing.T) {
	before := map[string]string{"file /p/a.go": "1", "func F": "2", "func T.M": "3"}
	for _, c := range []struct {
		now     map[string]string
		changed string
		why     string
	}{
		{map[string]string{"file /p/a.go": "1", "func F": "2", "func T.M": "3"}, "", ""},
		{map[string]string{"file /p/a.go": "1", "func F": "9", "func T.M": "3"}, "F", ""},
		{map[string]string{"file /p/a.go": "8", "func F": "9", "func T.M": "3"}, "", "a declaration other than a function's body changed in /p/a.go"},
		{map[string]string{"file /p/a.go": "1", "func F": "2"}, "", "a function was removed: T.M"},
		{map[string]string{"file /p/a.go": "1", "func F": "2", "func T.M": "3", "func G": "4"}, "", "a function was added: G"},
		{map[string]string{"file /p/a.go": "1", "file /p/b.go": "5", "func F": "2", "func T.M": "3"}, "", "/p/b.go is new"},
	} {
		changed, why := changedBodies(before, c.now)
		if strings.Join(changed, ",") != c.changed || why != c.why {
			t.Errorf("%v: %v %q, want %s %q", c.now, changed, why, c.changed, c.why)
		}
	}
}

func TestJoinLogs(t *testing.T) {
	if got := joinLogs("/d", "open a\ngetenv X\n", "getenv X\nopen b\n"); got != "open a\ngetenv X\nopen b\n" {
		t.Errorf("without chdir: %q", got)
	}
	if got := joinLogs("/d", "chdir /e\nopen a\n", "open a\n"); got != "chdir /e\nopen a\nchdir /d\nopen a\n" {
		t.Errorf("with chdir: %q", got)
	}
}
