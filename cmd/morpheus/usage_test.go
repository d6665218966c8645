package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Usage errors exit 2 with the error in sight: an unknown flag gets its
// error, a hint for go test's flags, and where the help is (not the help);
// a missing package directory, a corrupt trace given to -replay and an
// unknown command given to help are usage errors; -version and --version
// are the version command, whose help has no empty "Flags:".
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.trace")
	if err := os.WriteFile(bad, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args    []string
		code    int
		want    []string // in stdout+stderr
		wantNot []string
	}{
		{args: []string{"test", "-v", "./..."}, code: 2,
			want:    []string{"flag provided but not defined: -v", "-v: morpheus prints every test's verdict", `Run "morpheus test -h" for its flags.`},
			wantNot: []string{"Usage:", "-iterations N"}},
		{args: []string{"test", "-count", "3", "./..."}, code: 2, want: []string{"-count 3: -count=1 runs packages again whose cached outcome would do, as for go test; morpheus runs each test's schedules, -iterations N of them"}},
		{args: []string{"rewrite", "-timeout", "1m", "."}, code: 2, want: []string{"-timeout: a schedule is bounded by its step limit (-maxsteps)"}},
		{args: []string{"replay", "-nosuch"}, code: 2, want: []string{`Run "morpheus replay -h"`}, wantNot: []string{"Usage:"}},
		{args: []string{"test", "-C", dir, "./nope"}, code: 2, want: []string{"morpheus test: package ./nope: no such directory"}},
		{args: []string{"test", "-C", dir, "-replay", bad, "-run", "TestX", "."}, code: 2, want: []string{"morpheus test: -replay: ", `bad.trace:1: header: expected "morpheus-trace <version>", got "garbage"`}},
		{args: []string{"help", "nosuch"}, code: 2, want: []string{`unknown command "nosuch"`}},
		{args: []string{"nosuch"}, code: 2, want: []string{`unknown command "nosuch"; "morpheus help" lists them`}, wantNot: []string{"Commands:"}},
		{args: []string{"--version"}, code: 0, want: []string{"morpheus "}},
		{args: []string{"-version"}, code: 0, want: []string{"morpheus "}},
		{args: []string{"version", "-h"}, code: 0, want: []string{"Usage: morpheus version"}, wantNot: []string{"Flags:"}},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		all := out.String() + errb.String()
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, c.code, all)
		}
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, all)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(all, w) {
				t.Errorf("%v: output has %q:\n%s", c.args, w, all)
			}
		}
	}
}
