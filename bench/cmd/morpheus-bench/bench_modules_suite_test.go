package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSuite(t *testing.T) {
	in := `# a comment

example.com/a/v2  v2.1.0  ./...  a pool, with notes
./local           -       ./sub/...
`
	got, err := parseSuite("s.txt", "/base", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d entries, want 2", len(got))
	}
	if e := got[0]; e.Module != "example.com/a/v2" || e.Version != "v2.1.0" || e.Packages != "./..." || e.Notes != "a pool, with notes" || e.Line != 3 {
		t.Errorf("entry 0 = %+v", e)
	}
	if e := got[1]; e.Local != filepath.Join("/base", "local") || e.Name() != "local" || e.Line != 4 {
		t.Errorf("entry 1 = %+v", e)
	}
}

func TestParseSuiteErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"example.com/a v1.0.0", "s.txt:1: expected MODULE VERSION PACKAGES [NOTES], found 2 field(s)"},
		{"\n\nnotamodule v1.0.0 ./...", "s.txt:3: expected a module path (host/path) or a directory (./dir), found \"notamodule\""},
		{"example.com/a latest ./...", "s.txt:1: expected a pinned version (vX.Y.Z...) for example.com/a, found \"latest\""},
		{"./dir v1.0.0 ./...", "s.txt:1: a local directory ./dir takes version \"-\", not \"v1.0.0\""},
		{"example.com/a v1.0.0 all", "s.txt:1: expected a package pattern relative to the module (./... or ./sub/...), found \"all\""},
		{"example.com/a v1.0.0 ./...\nexample.com/a v1.1.0 ./...", "s.txt:2: module example.com/a is already listed at line 1"},
		{"# only a comment\n", "s.txt: no modules listed"},
	} {
		_, err := parseSuite("s.txt", "/", strings.NewReader(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("parseSuite(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseExpectations(t *testing.T) {
	in := `# known failures
example.com/a . TestLeak leak bug go test -race: DATA RACE at a.go:10 (summarised)
example.com/a ./sub TestClock step-limit limit -maxsteps polls a clock in a loop
`
	got, err := parseExpectations("x.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d, want 2", len(got))
	}
	if x := got[0]; x.Class != classBug || x.Note != "go test -race: DATA RACE at a.go:10 (summarised)" || x.Kind != "leak" {
		t.Errorf("0 = %+v", x)
	}
	if x := got[1]; x.Class != classLimit || x.Flag != "-maxsteps" || x.Note != "polls a clock in a loop" {
		t.Errorf("1 = %+v", x)
	}
	if !got[0].pkgMatches("example.com/a", "example.com/a") || !got[1].pkgMatches("example.com/a", "example.com/a/sub") || got[1].pkgMatches("example.com/a", "example.com/a") {
		t.Error("pkgMatches")
	}
}

func TestParseExpectationsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"m . TestX leak", "x.txt:1: expected MODULE PACKAGE TEST KIND bug EVIDENCE or MODULE PACKAGE TEST KIND limit FLAG NOTE, found 4 field(s)"},
		{"m . X leak bug why", "x.txt:1: expected a top-level test name (TestX), found \"X\""},
		{"m . TestX leak maybe why", "x.txt:1: expected \"bug\" or \"limit\" after the kind, found \"maybe\""},
		{"\nm . TestX leak bug", "x.txt:2: a real bug needs its evidence (a plain-Go reproduction or go test -race output, summarised) after \"bug\""},
		{"m . TestX leak limit allowleaks why", "x.txt:1: a limitation needs the flag that lifts it (e.g. -allowleaks) after \"limit\""},
		{"m . TestX leak limit -allowleaks", "x.txt:1: a limitation needs its explanation after the flag -allowleaks"},
		{"m . TestX * bug a\nm . TestX * bug b", "x.txt:2: . TestX * is already listed at line 1"},
	} {
		_, err := parseExpectations("x.txt", strings.NewReader(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("parseExpectations(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

// TestBuiltInModuleSuite decodes the suite and expectations morpheus ships.
func TestBuiltInModuleSuite(t *testing.T) {
	suite, expect, err := loadModuleSuite("", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(suite) < 20 {
		t.Errorf("the suite lists %d modules, want at least 20", len(suite))
	}
	mods := map[string]bool{}
	for _, e := range suite {
		if e.Local != "" {
			t.Errorf("line %d: the built-in suite names a local directory %s", e.Line, e.Module)
		}
		mods[e.Module] = true
	}
	for _, x := range expect {
		if !mods[x.Module] {
			t.Errorf("modules-expect.txt:%d: module %s is not in the suite", x.Line, x.Module)
		}
	}
}

func FuzzParseSuite(f *testing.F) {
	f.Add(defaultModuleSuite) // and testdata/fuzz/FuzzParseSuite
	f.Fuzz(func(t *testing.T, data []byte) {
		suite, err := parseSuite("s.txt", "/", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "s.txt") && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, e := range suite {
			if e.Line < 1 || e.Module == "" || e.Version == "" || !strings.HasPrefix(e.Packages, ".") {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}

func FuzzParseExpectations(f *testing.F) {
	f.Add(defaultModuleExpect) // and testdata/fuzz/FuzzParseExpectations
	f.Fuzz(func(t *testing.T, data []byte) {
		xs, err := parseExpectations("x.txt", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "x.txt:") && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error does not name file:line: %v", err)
			}
			return
		}
		for _, x := range xs {
			if x.Note == "" || (x.Class == classLimit) != (x.Flag != "") || !strings.HasPrefix(x.Test, "Test") {
				t.Fatalf("bad expectation %+v", x)
			}
		}
	})
}
