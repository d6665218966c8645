package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScripts runs the scripts of the benchmarks in testdata/script, each a
// parallel subtest, as cmd/morpheus's scripts run: "morpheus bench SUITE"
// runs the morpheus command built from this clone, which runs this
// package's command ($MORPHEUS_BENCH, built once). Each line of a script is
// one of:
//
//	morpheus ARGS...     run the morpheus command; it must exit 0
//	! morpheus ARGS...   run the CLI; it must exit non-zero
//	stdout REGEXP        the last run's stdout must match
//	stderr REGEXP        the last run's stderr must match
//	! stdout REGEXP      ... must not match (also for stderr)
//	env KEY=VALUE        set an environment variable for the rest of the script
//	                     (its morpheus and exec lines)
//	exec PROG ARGS...    run another program (go, or a built binary); ! as above
//	cd DIR               the directory exec runs in (default this package's;
//	                     morpheus always runs in this package's)
//	cp SRC DST           copy a file
//
// $WORK in arguments is a fresh temporary directory per script, $ROOT the
// root of morpheus's source tree, $TESTBIN this test binary. Blank lines and lines starting with # are
// ignored. A line "-- PATH --" ends the script: the lines after it, up to the
// next such line, are the file $WORK/PATH, written (with $WORK and $ROOT
// replaced) before the script runs.
//
// The scripts run side by side (go test's -parallel, GOMAXPROCS by default):
// most of their time is spent in the go command and in the processes they
// start, and one after the other they took longer than go test's default
// time-out on a busy 2-core machine. Each line of the CLI is a process of
// its own, so the scripts share no working directory, environment or flag
// state.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := morpheusBinary(t)
	benchBin := cliBinary(t)
	// A script's morpheus test that fails writes HTML reports, by default
	// into morpheus-report/ where it runs, this package's directory: the
	// scripts give -report.
	if _, err := os.Stat("morpheus-report"); os.IsNotExist(err) {
		t.Cleanup(func() {
			if _, err := os.Stat("morpheus-report"); err == nil {
				os.RemoveAll("morpheus-report")
				t.Error("a script wrote reports into this package's directory (morpheus-report): give its morpheus test -report")
			}
		})
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			t.Parallel()
			runScript(t, bin, benchBin, self, file)
		})
	}
}

// runScript runs one script with the morpheus command bin, which runs the
// benchmarks' command benchBin; self is this test binary ($TESTBIN).
func runScript(t *testing.T, bin, benchBin, self, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	expand := strings.NewReplacer("$WORK", work, "$ROOT", root, "$TESTBIN", self).Replace
	script, files := splitScript(expand(string(data)))
	for name, content := range files {
		path := filepath.Join(work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := "."
	env := []string{"MORPHEUS_BENCH=" + benchBin} // and the script's env lines
	var stdout, stderr bytes.Buffer
	for n, line := range strings.Split(script, "\n") {
		n++
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		neg := strings.HasPrefix(line, "! ")
		line = strings.TrimPrefix(line, "! ")
		fields := strings.Fields(line)
		switch fields[0] {
		case "morpheus", "exec":
			stdout.Reset()
			stderr.Reset()
			var code int
			if fields[0] == "morpheus" {
				code = execProgram(t, ".", env, append([]string{bin}, fields[1:]...), &stdout, &stderr)
			} else {
				code = execProgram(t, dir, env, fields[1:], &stdout, &stderr)
			}
			if (code != 0) != neg {
				t.Fatalf("%s:%d: %s: exit code %d\nstdout:\n%s\nstderr:\n%s", file, n, line, code, &stdout, &stderr)
			}
		case "stdout", "stderr":
			out := stdout.String()
			if fields[0] == "stderr" {
				out = stderr.String()
			}
			pat := strings.TrimSpace(strings.TrimPrefix(line, fields[0]))
			pat = strings.Trim(pat, "'")
			re, err := regexp.Compile("(?m)" + pat)
			if err != nil {
				t.Fatalf("%s:%d: bad regexp: %v", file, n, err)
			}
			if re.MatchString(out) == neg {
				t.Fatalf("%s:%d: %s: %s was:\n%s", file, n, line, fields[0], out)
			}
		case "env":
			k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "env")), "=")
			if !ok {
				t.Fatalf("%s:%d: expected env KEY=VALUE", file, n)
			}
			env = append(env, k+"="+v)
		case "cd":
			if len(fields) != 2 {
				t.Fatalf("%s:%d: expected cd DIR", file, n)
			}
			dir = fields[1]
		case "cp":
			if len(fields) != 3 {
				t.Fatalf("%s:%d: expected cp SRC DST", file, n)
			}
			b, err := os.ReadFile(fields[1])
			if err == nil {
				err = os.WriteFile(fields[2], b, 0o644)
			}
			if err != nil {
				t.Fatalf("%s:%d: %v", file, n, err)
			}
		default:
			t.Fatalf("%s:%d: unknown command %q", file, n, fields[0])
		}
	}
}

// splitScript splits a script into its commands and the files that follow
// them, each introduced by a line "-- PATH --".
func splitScript(s string) (script string, files map[string]string) {
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

// execProgram runs an external program in dir, with env added to this
// process's environment, and returns its exit code (-1 if it could not
// start).
func execProgram(t *testing.T, dir string, env, args []string, stdout, stderr *bytes.Buffer) int {
	if len(args) == 0 {
		t.Fatal("exec: no program")
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		stderr.WriteString(err.Error())
		return -1
	}
	return 0
}
