// Package scripttest runs the command-line scripts of the morpheus command's
// tests and of the benchmarks' command's tests: a script is a list of
// commands to run and of what their output must say, followed by the files
// it works on.
//
// Each line of a script is one of:
//
//	morpheus ARGS...     run the program under test (Config.Bin); it must exit 0
//	! morpheus ARGS...   run it; it must exit non-zero
//	stdout REGEXP        the last run's stdout must match
//	stderr REGEXP        the last run's stderr must match
//	! stdout REGEXP      ... must not match (also for stderr)
//	env KEY=VALUE        set an environment variable for the rest of the script
//	                     (its morpheus and exec lines)
//	exec PROG ARGS...    run another program (go, or a built binary); ! as above
//	cd DIR               the directory exec runs in (default Config.Dir, the
//	                     test's package directory; morpheus always runs there)
//	cp SRC DST           copy a file (relative paths are Config.Dir's)
//
// and the commands of Config.Commands. $WORK in a script is a fresh
// temporary directory per script, $ROOT the root of morpheus's source tree,
// $TESTBIN the test binary. Blank lines and lines starting with # are
// ignored. A line "-- PATH --" ends the script: the lines after it, up to
// the next such line, are the file $WORK/PATH, written (with $WORK and $ROOT
// replaced) before the script runs.
package scripttest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Config is what the scripts of a package share.
type Config struct {
	Root string   // $ROOT: the root of morpheus's source tree
	Bin  string   // the program a morpheus line runs
	Env  []string // added to the environment of every program a script runs
	// Dir is the directory the scripts run in (morpheus lines, exec before
	// a cd, relative paths of cd and cp), "" for the test's package
	// directory: the scripts of a package split off to run in a test binary
	// of their own run where they ran before.
	Dir string
	// Commands are further script commands by name, run with the script's
	// state and the line's fields (the command's name first); neg is
	// whether the line began with "!".
	Commands map[string]func(s *State, neg bool, fields []string) error
}

// State is a running script's: its environment lines and the last run's
// output.
type State struct {
	Env            []string
	Stdout, Stderr bytes.Buffer
	cfg            *Config
}

// Bin is the program a morpheus line runs.
func (s *State) Bin() string { return s.cfg.Bin }

// RunAll runs the scripts testdata/script/*.txt, each a parallel subtest.
// The scripts run side by side (go test's -parallel, GOMAXPROCS by
// default): most of their time is spent in the go command and in the
// processes they start, and one after the other they took longer than go
// test's default time-out on a busy 2-core machine. Each line is a process
// of its own, so the scripts share no working directory, environment or
// flag state. A script's morpheus test that fails writes HTML reports, by
// default into morpheus-report/ where it runs, the package's directory: the
// scripts give -report, and RunAll fails if one did not.
func RunAll(t *testing.T, cfg Config) {
	files, err := filepath.Glob("testdata/script/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	reports := filepath.Join(cfg.dir(), "morpheus-report")
	if _, err := os.Stat(reports); os.IsNotExist(err) {
		t.Cleanup(func() {
			if _, err := os.Stat(reports); err == nil {
				os.RemoveAll(reports)
				t.Error("a script wrote reports into this package's directory (morpheus-report): give its morpheus test -report")
			}
		})
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			t.Parallel()
			Run(t, cfg, file)
		})
	}
}

// dir is the directory the scripts run in.
func (c *Config) dir() string {
	if c.Dir == "" {
		return "."
	}
	return c.Dir
}

// Run runs one script; a line that fails fails the test, naming the
// script's file and line.
func Run(t *testing.T, cfg Config, file string) {
	if err := run(cfg, file, t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// run runs the script file with $WORK at work.
func run(cfg Config, file, work string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	expand := strings.NewReplacer("$WORK", work, "$ROOT", cfg.Root, "$TESTBIN", self).Replace
	script, files := Split(expand(string(data)))
	for name, content := range files {
		path := filepath.Join(work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	s := &State{Env: append([]string(nil), cfg.Env...), cfg: &cfg}
	dir := cfg.dir()
	for n, line := range strings.Split(script, "\n") {
		n++
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		neg := strings.HasPrefix(line, "! ")
		line = strings.TrimPrefix(line, "! ")
		fields := strings.Fields(line)
		if err := s.do(dir, neg, line, fields); err != nil {
			return fmt.Errorf("%s:%d: %s: %v", file, n, line, err)
		}
		if fields[0] == "cd" {
			dir = s.path(fields[1])
		}
	}
	return nil
}

// do runs one line of a script, in dir for exec.
func (s *State) do(dir string, neg bool, line string, fields []string) error {
	switch fields[0] {
	case "morpheus", "exec":
		var code int
		if fields[0] == "morpheus" {
			code = s.Exec(s.cfg.dir(), append([]string{s.cfg.Bin}, fields[1:]...))
		} else {
			code = s.Exec(dir, fields[1:])
		}
		if (code != 0) != neg {
			return fmt.Errorf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, &s.Stdout, &s.Stderr)
		}
	case "stdout", "stderr":
		out := s.Stdout.String()
		if fields[0] == "stderr" {
			out = s.Stderr.String()
		}
		re, err := Regexp(strings.TrimSpace(strings.TrimPrefix(line, fields[0])))
		if err != nil {
			return err
		}
		if re.MatchString(out) == neg {
			return fmt.Errorf("%s was:\n%s", fields[0], out)
		}
	case "env":
		k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "env")), "=")
		if !ok {
			return fmt.Errorf("expected env KEY=VALUE")
		}
		s.Env = append(s.Env, k+"="+v)
	case "cd":
		if len(fields) != 2 {
			return fmt.Errorf("expected cd DIR")
		}
	case "cp":
		if len(fields) != 3 {
			return fmt.Errorf("expected cp SRC DST")
		}
		b, err := os.ReadFile(s.path(fields[1]))
		if err == nil {
			err = os.WriteFile(s.path(fields[2]), b, 0o644)
		}
		return err
	default:
		cmd, ok := s.cfg.Commands[fields[0]]
		if !ok {
			return fmt.Errorf("unknown command %q", fields[0])
		}
		return cmd(s, neg, fields)
	}
	return nil
}

// path resolves a script's path against Config.Dir.
func (s *State) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.cfg.dir(), p)
}

// Regexp compiles a script's pattern: multi-line, quotes around it removed.
func Regexp(pat string) (*regexp.Regexp, error) {
	re, err := regexp.Compile("(?m)" + strings.Trim(pat, "'"))
	if err != nil {
		return nil, fmt.Errorf("bad regexp: %v", err)
	}
	return re, nil
}

// Exec runs a program in dir, with the script's environment added to this
// process's, its output in Stdout and Stderr (reset first), and returns
// its exit code (-1 if it could not start).
func (s *State) Exec(dir string, args []string) int {
	s.Stdout.Reset()
	s.Stderr.Reset()
	if len(args) == 0 {
		s.Stderr.WriteString("exec: no program")
		return -1
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Stdout, cmd.Stderr = &s.Stdout, &s.Stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		s.Stderr.WriteString(err.Error())
		return -1
	}
	return 0
}

// Split splits a script into its commands and the files that follow them,
// each introduced by a line "-- PATH --".
func Split(s string) (script string, files map[string]string) {
	files = map[string]string{}
	lines := strings.SplitAfter(s, "\n")
	name := ""
	var b strings.Builder
	flush := func() {
		if name == "" {
			script = b.String()
		} else {
			files[name] = b.String()
		}
		b.Reset()
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			name = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		b.WriteString(l)
	}
	flush()
	return script, files
}
