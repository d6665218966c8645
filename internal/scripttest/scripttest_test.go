package scripttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// script writes a script into a temporary directory and returns its path.
func script(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunPasses(t *testing.T) {
	work := t.TempDir()
	cfg := Config{Bin: "cat", Env: []string{"A=1"}}
	err := run(cfg, script(t, `
# cat of a file written after the script
morpheus $WORK/f.txt
stdout '^hello$'
! stdout goodbye
! morpheus $WORK/missing
stderr missing
env B=2
exec env
stdout '^A=1$'
stdout '^B=2$'
cp $WORK/f.txt $WORK/g.txt
exec cat $WORK/g.txt
stdout hello
-- f.txt --
hello
`), work)
	if err != nil {
		t.Fatal(err)
	}
}

func TestRunFails(t *testing.T) {
	cfg := Config{Bin: "true", Commands: map[string]func(*State, bool, []string) error{
		"mine": func(s *State, neg bool, f []string) error {
			if len(f) != 2 {
				return os.ErrInvalid
			}
			return nil
		},
	}}
	for _, c := range []struct{ text, want string }{
		{"! morpheus", ":1: morpheus: exit code 0"},
		{"morpheus\nstdout x", ":2: stdout x: stdout was:"},
		{"morpheus\n! stderr ''", ":2: stderr '': stderr was:"},
		{"stdout '('", "bad regexp"},
		{"env NOEQUALS", "expected env KEY=VALUE"},
		{"cd", "expected cd DIR"},
		{"cp a", "expected cp SRC DST"},
		{"cp /nonexistent/a b", "no such file"},
		{"nosuch", `unknown command "nosuch"`},
		{"mine a b", "invalid argument"},
		{"exec", "exit code -1"},
	} {
		err := run(cfg, script(t, c.text), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("script %q: error %v, want one containing %q", c.text, err, c.want)
		}
	}
	if err := run(cfg, script(t, "mine a"), t.TempDir()); err != nil {
		t.Errorf("mine a: %v", err)
	}
}

func TestSplit(t *testing.T) {
	s, files := Split("a\n-- x/y.txt --\n1\n2\n-- z --\n3\n")
	if s != "a\n" || files["x/y.txt"] != "1\n2\n" || files["z"] != "3\n" || len(files) != 2 {
		t.Errorf("Split = %q, %q", s, files)
	}
}
