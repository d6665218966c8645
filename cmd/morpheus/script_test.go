package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScripts runs the CLI scripts in testdata/script. Each line of a script
// is one of:
//
//	morpheus ARGS...     run the CLI; it must exit 0
//	! morpheus ARGS...   run the CLI; it must exit non-zero
//	stdout REGEXP        the last run's stdout must match
//	stderr REGEXP        the last run's stderr must match
//	! stdout REGEXP      ... must not match (also for stderr)
//	env KEY=VALUE        set an environment variable for the rest of the script
//
// $WORK in arguments is a fresh temporary directory per script. Blank lines
// and lines starting with # are ignored.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			runScript(t, file)
		})
	}
}

func runScript(t *testing.T, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	work := t.TempDir()
	var stdout, stderr bytes.Buffer
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		neg := strings.HasPrefix(line, "! ")
		line = strings.TrimPrefix(line, "! ")
		fields := strings.Fields(strings.ReplaceAll(line, "$WORK", work))
		switch fields[0] {
		case "morpheus":
			stdout.Reset()
			stderr.Reset()
			code := run(fields[1:], &stdout, &stderr)
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
			k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.ReplaceAll(line, "$WORK", work), "env")), "=")
			if !ok {
				t.Fatalf("%s:%d: expected env KEY=VALUE", file, n)
			}
			t.Setenv(k, v)
		default:
			t.Fatalf("%s:%d: unknown command %q", file, n, fields[0])
		}
	}
}
