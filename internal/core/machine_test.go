package core

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/sched")

// TestMachineGolden runs each script of testdata/sched against the
// scheduler's state machine and compares the transcript, every event and
// the decisions it led to, with the script's .golden file; then runs it
// through the production path (runScriptDo: a Worker, the tasks on their
// carriers, Run.Do), which must write the same transcript.
func TestMachineGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/sched/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scripts in testdata/sched")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := runScript(file, src)
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestMachineGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (go test -run TestMachineGolden -update rewrites it):\n--- got\n%s--- want\n%s", file, golden, got, want)
			}
			do, err := runScriptDo(file, src)
			if err != nil {
				t.Fatalf("production path: %v\n%s", err, do)
			}
			if !bytes.Equal(do, want) {
				t.Errorf("%s through Run.Do differs from %s:\n--- got\n%s--- want\n%s", file, golden, do, want)
			}
		})
	}
}

// TestMachineScriptErrors checks that a malformed or impossible script is
// rejected with an error that names its file and line.
func TestMachineScriptErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown verb", "spawn main\nfrob main", "bad.txt:2: unknown event \"frob\""},
		{"missing name", "spawn", "bad.txt:1: spawn: missing a task name"},
		{"missing kind", "spawn main\nnext\npost main", "bad.txt:3: post: missing an op kind"},
		{"unknown kind", "spawn main\nnext\npost main fly", "bad.txt:3: post: unknown op kind \"fly\""},
		{"clock is no op", "post main clock", "bad.txt:1: post: unknown op kind \"clock\""},
		{"unknown option", "spawn main\n\n# comment\nnext\npost main send colour=red", "bad.txt:5: post: unknown option \"colour\""},
		{"bad duration", "spawn main\ntimer t at=soon", "bad.txt:2: timer: at: \"soon\" is not a virtual time"},
		{"negative duration", "timer t at=-1s", "bad.txt:1: timer: at: \"-1s\" is not a virtual time"},
		{"missing required", "timer t", "bad.txt:1: timer: missing at=..."},
		{"flag with value", "spawn main daemon=yes", "bad.txt:1: spawn: daemon is a flag"},
		{"value missing", "config max-steps", "bad.txt:1: config: max-steps needs a value"},
		{"twice", "config seed=1 seed=2", "bad.txt:1: config: option seed given twice"},
		{"bad number", "config max-steps=-3", "bad.txt:1: config: max-steps: \"-3\" is not a number"},
		{"bad name", "spawn ma!n", "bad.txt:1: spawn: task name \"ma!n\""},
		{"bad pick", "pick one", "bad.txt:1: pick: \"one\" is not an index"},
		{"empty pick", "pick", "bad.txt:1: pick: no answers"},
		{"late config", "spawn main\nconfig seed=1", "bad.txt:2: config must be the first event"},
		// Scripts that parse but describe what the runtime cannot do.
		{"next without main", "next", "bad.txt:1: next: no main task"},
		{"two mains", "spawn main\nspawn other", "bad.txt:2: spawn other: no task runs to spawn it"},
		{"duplicate", "spawn main\nnext\nspawn main", "bad.txt:3: spawn main: a task of that name exists"},
		{"unknown task", "spawn main\nnext\npost g1 send", "bad.txt:3: post g1: no such task"},
		{"not running", "spawn main\nnext\nspawn g1\npost g1 send", "bad.txt:4: post g1: g1 does not run (main does)"},
		{"next while running", "spawn main\nnext\nnext", "bad.txt:3: next: main runs and has not posted its next op"},
		{"unblock idle", "spawn main\nnext\nunblock main", "bad.txt:3: unblock main: main has no pending op"},
		{"cancel goroutine", "spawn main\nnext\nspawn g\ncancel g", "bad.txt:4: cancel g: g is not a timer"},
		{"wake unknown", "spawn main\nnext\ntimer t at=1s wake=nobody", "bad.txt:3: timer t: wake: no such task nobody"},
		{"after the end", "spawn main\nnext\nreturn main\nnext\nnext", "bad.txt:5: next: the iteration is over"},
		{"hot without monitor", "spawn main\nhot", "bad.txt:2: hot: no liveness monitor (config liveness)"},
		{"cold without monitor", "cold", "bad.txt:1: cold: no liveness monitor"},
		{"bad limit", "config liveness\nhot limit=long", "bad.txt:2: hot: limit: \"long\" is not a virtual time"},
		{"unfollow not following", "spawn main\nunfollow", "bad.txt:2: unfollow: the strategy does not follow (config follow)"},
		{"unfollow twice", "config follow\nunfollow\nunfollow", "bad.txt:3: unfollow: the strategy does not follow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runScript("bad.txt", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error; transcript:\n%s", out)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q, want it to begin %q", err, tc.want)
			}
		})
	}
}

// FuzzParseScript checks that the decoder never panics, that its errors
// name file:line, and that a script it accepts reads back the same once
// written out, and runs without panicking, on the machine and through the
// production path, which write the same transcript when both accept it.
func FuzzParseScript(f *testing.F) {
	files, _ := filepath.Glob("testdata/sched/*.txt")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lines, err := parseScript("f.txt", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.txt:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l.String() + "\n")
		}
		again, err := parseScript("g.txt", []byte(b.String()))
		if err != nil {
			t.Fatalf("written back, the script does not parse: %v\n%s", err, b.String())
		}
		if len(again) != len(lines) {
			t.Fatalf("written back, %d lines become %d", len(lines), len(again))
		}
		for i := range lines {
			if again[i].String() != lines[i].String() {
				t.Fatalf("line %d written back as %q reads as %q", i, lines[i], again[i])
			}
		}
		got, err := runScript("f.txt", src)
		if err != nil && !strings.HasPrefix(err.Error(), "f.txt:") {
			t.Fatalf("error without file:line: %v", err)
		}
		do, errDo := runScriptDo("f.txt", src)
		if errDo != nil && !strings.HasPrefix(errDo.Error(), "f.txt:") {
			t.Fatalf("production path: error without file:line: %v", errDo)
		}
		if err == nil && errDo == nil && !bytes.Equal(got, do) {
			t.Fatalf("the machine and the production path differ:\n--- machine\n%s--- Run.Do\n%s", got, do)
		}
	})
}

// TestScriptDoErrors checks that a script the production path cannot play
// as written (its tasks end as Go code does, with an exit op) is rejected
// with an error that names its file and line, not played otherwise.
func TestScriptDoErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"timer first", "timer t at=1s\nspawn main", "bad.txt:1: timer: the production path's first task is the main task"},
		{"return without exit", "spawn main\nnext\nreturn main", "bad.txt:3: return main: on the production path a task returns after its exit op"},
		{"exit with options", "spawn main\nnext\npost main exit val=3", "bad.txt:3: post main: an exit op takes no option but res"},
		{"post after exit", "spawn main\nnext\npost main exit\nnext\npost main send", "bad.txt:5: post: main has run its exit op"},
		{"not running", "spawn main\nnext\nspawn g1\npost g1 send", "bad.txt:4: post g1: g1 does not run (main does)"},
		{"spawn after post", "spawn main\nnext\npost main send\nspawn g1", "bad.txt:4: spawn g1: no task runs"},
		{"after the end", "spawn main\nnext\npost main exit\nnext\nreturn main\nnext\nnext", "bad.txt:7: the iteration is over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runScriptDo("bad.txt", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error; transcript:\n%s", out)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q, want it to begin %q", err, tc.want)
			}
		})
	}
}
