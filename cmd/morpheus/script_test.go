package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/morpheus-go/morpheus/internal/scripttest"
)

// TestScripts runs the CLI scripts in testdata/script (the language is
// internal/scripttest's), each a parallel subtest; the longest run, in
// this directory too, from test binaries of their own (internal/scripts:
// the corpus and replay scripts, the newcomer's path). A morpheus line runs the
// command built once (cliBinary), $TESTBIN is this test binary (a system
// that morpheus fuzz runs, see TestMain). One command more:
//
//	killon REGEXP morpheus ARGS...
//	                     run the CLI until its stdout matches REGEXP, then
//	                     kill it and the processes it started (SIGKILL);
//	                     fails if that does not happen within 5 minutes
//	in DIR morpheus ARGS...
//	                     run the CLI in DIR (a user's module), not in this
//	                     package's directory; ! as for morpheus
func TestScripts(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	scripttest.RunAll(t, scripttest.Config{
		Root:     root,
		Bin:      cliBinary(t),
		Commands: map[string]func(*scripttest.State, bool, []string) error{"killon": killon, "in": inDir},
	})
}

// killon is the script command killon REGEXP morpheus ARGS....
func killon(s *scripttest.State, neg bool, fields []string) error {
	if neg || len(fields) < 3 || fields[2] != "morpheus" {
		return fmt.Errorf("expected killon REGEXP morpheus ARGS...")
	}
	re, err := scripttest.Regexp(fields[1])
	if err != nil {
		return err
	}
	s.Stdout.Reset()
	s.Stderr.Reset()
	if err := killOn(re, s.Env, append([]string{s.Bin()}, fields[3:]...), &s.Stdout, &s.Stderr); err != nil {
		return fmt.Errorf("%v\nstdout:\n%s\nstderr:\n%s", err, &s.Stdout, &s.Stderr)
	}
	return nil
}

// inDir is the script command in DIR morpheus ARGS....
func inDir(s *scripttest.State, neg bool, fields []string) error {
	if len(fields) < 3 || fields[2] != "morpheus" {
		return fmt.Errorf("expected in DIR morpheus ARGS...")
	}
	if code := s.Exec(fields[1], append([]string{s.Bin()}, fields[3:]...)); (code != 0) != neg {
		return fmt.Errorf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, &s.Stdout, &s.Stderr)
	}
	return nil
}
