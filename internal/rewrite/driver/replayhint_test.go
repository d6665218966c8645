package driver

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// The replay command runs where morpheus test ran: -C as given, the package
// and its trace relative to -C's directory, or, for a package outside it,
// its import path and the trace's absolute path; quoted for the shell.
func TestReplayHint(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		dir, pkgDir, want string
	}{
		{root, root, "morpheus test -C " + root + " -replay %s -run '%s' ."},
		{root, filepath.Join(root, "a", "b"), "morpheus test -C " + root + " -replay a/b/%s -run '%s' ./a/b"},
		{root, filepath.Join(root, "my dir"), "morpheus test -C " + root + " -replay 'my dir'/%s -run '%s' ./'my dir'"},
		{filepath.Join(root, "m"), filepath.Join(root, "x"), "morpheus test -C " + filepath.Join(root, "m") + " -replay " + filepath.Join(root, "x") + "/%s -run '%s' example.com/x"},
		{filepath.Join(root, "100%"), filepath.Join(root, "100%", "p"), "morpheus test -C '" + filepath.Join(root, "100%%") + "' -replay p/%s -run '%s' ./p"},
	} {
		p := &PackageSummary{Path: "example.com/x", dir: c.pkgDir}
		if got := replayHint(Config{Dir: c.dir, Corpus: true}, p); got != c.want {
			t.Errorf("replayHint(-C %s, %s) =\n%s, want\n%s", c.dir, c.pkgDir, got, c.want)
		}
	}
	// A replay names the trace it was given, relative to -C's directory
	// when under it; the path rt passes (%.0s) is not printed.
	for _, c := range []struct {
		pkgDir, replay, want string
	}{
		{filepath.Join(root, "a"), filepath.Join(root, "a", "testdata", "morpheus", "TestX", "01"), "morpheus test -C " + root + " -replay a/testdata/morpheus/TestX/01%.0s -run '%s' ./a"},
		{root, filepath.Join(root, "testdata", "morpheus", "TestX", "01"), "morpheus test -C " + root + " -replay testdata/morpheus/TestX/01%.0s -run '%s' ."},
		{filepath.Join(root, "a"), "/elsewhere/t", "morpheus test -C " + root + " -replay /elsewhere/t%.0s -run '%s' ./a"},
	} {
		p := &PackageSummary{Path: "example.com/x", dir: c.pkgDir}
		got := replayHint(Config{Dir: root, Corpus: true, Replay: c.replay}, p)
		if got != c.want {
			t.Errorf("replayHint(-replay %s) =\n%s, want\n%s", c.replay, got, c.want)
		}
		if line, want := fmt.Sprintf(got, c.replay, "^TestX$"), strings.Replace(strings.Replace(c.want, "%.0s", "", 1), "%s", "^TestX$", 1); line != want {
			t.Errorf("printed %s, want %s", line, want)
		}
	}
	p := &PackageSummary{Path: "example.com/x", dir: root}
	if got, want := replayHint(Config{Dir: ".", Corpus: false}, p), "morpheus rewrite -replay %s -run '%s' example.com/x"; got != want {
		t.Errorf("without the corpus: %s, want %s", got, want)
	}
}

// Given several packages, a trace under one's testdata/morpheus replays in
// that one only; a trace kept elsewhere, in all of them.
func TestReplayPackages(t *testing.T) {
	root := t.TempDir()
	a := &PackageSummary{Path: "m/a", dir: filepath.Join(root, "a")}
	ab := &PackageSummary{Path: "m/ab", dir: filepath.Join(root, "ab")}
	pkgs := []*PackageSummary{a, ab}
	if got := replayPackages(filepath.Join(root, "ab", "testdata", "morpheus", "TestX", "0123"), pkgs); len(got) != 1 || got[0] != ab {
		t.Errorf("a trace of m/ab replays in %v", got)
	}
	if got := replayPackages(filepath.Join(root, "elsewhere.trace"), pkgs); len(got) != 2 {
		t.Errorf("a trace kept elsewhere replays in %v", got)
	}
}

// A corpus entry's path is shown as the replay command names it: under the
// package's directory relative to -C's, absolute for a package outside it.
func TestShownPaths(t *testing.T) {
	root := t.TempDir()
	entry := "testdata/morpheus/TestX/01"
	for _, c := range []struct {
		pkgDir, want string
	}{
		{root, entry},
		{filepath.Join(root, "a", "b"), "a/b/" + entry},
		{filepath.Join(filepath.Dir(root), "x"), filepath.Join(filepath.Dir(root), "x") + "/" + entry},
	} {
		p := &PackageSummary{dir: c.pkgDir, shown: shownDir(Config{Dir: root}, c.pkgDir)}
		if got := p.Shown(entry); got != c.want {
			t.Errorf("package in %s: shown %q, want %q", c.pkgDir, got, c.want)
		}
	}
	if got := (*PackageSummary)(nil).Shown(entry); got != entry {
		t.Errorf("a Check's record: shown %q", got)
	}
}

// A Check's trace replays with the command of a rewritten test's, in the
// corpus's form even without the corpus (a Check saves under its package's
// testdata/morpheus): its path relative to the package's directory, or
// absolute (under the package: made relative; elsewhere: named as is).
func TestCheckReplayCommand(t *testing.T) {
	root := t.TempDir()
	p := &PackageSummary{Path: "example.com/x", dir: filepath.Join(root, "a"), hintDir: root}
	for _, c := range []struct{ path, want string }{
		{"testdata/morpheus/TestX/01", "morpheus test -C " + root + " -replay a/testdata/morpheus/TestX/01 -run '^TestX$' ./a"},
		{filepath.Join(root, "a", "testdata", "morpheus", "TestX", "01"), "morpheus test -C " + root + " -replay a/testdata/morpheus/TestX/01 -run '^TestX$' ./a"},
		{"/elsewhere/01", "morpheus test -C " + root + " -replay /elsewhere/01 -run '^TestX$' ./a"},
		{"", ""},
	} {
		if got := p.ReplayCommand(c.path, "TestX"); got != c.want {
			t.Errorf("ReplayCommand(%q) =\n%s, want\n%s", c.path, got, c.want)
		}
	}
	if got, want := p.ReplayCommand("testdata/morpheus/TestX_a/01", "TestX/a"), "morpheus test -C "+root+" -replay a/testdata/morpheus/TestX_a/01 -run '^TestX$/^a$' ./a"; got != want {
		t.Errorf("a subtest's: %s, want %s", got, want)
	}
	var none *PackageSummary // plain mode: no package
	if got := none.ReplayCommand("testdata/morpheus/TestX/01", "TestX"); got != "" {
		t.Errorf("without a package: %q", got)
	}
}
