package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/results"
)

// TestProgressView checks both displays: on a terminal one line redrawn
// with carriage returns (padded over a longer previous line), ended by a
// newline when the Check is done; elsewhere a plain line per tenth.
func TestProgressView(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.jsonl")
	add := func(its int, done bool) {
		p := &results.Progress{Test: "TestX", Planned: 100, Iterations: its, Failures: 1, PartialOrders: its / 2,
			ElapsedNS: int64(time.Duration(its) * 10 * time.Millisecond), Done: done}
		if err := results.Append(path, p); err != nil {
			t.Fatal(err)
		}
	}
	var tty bytes.Buffer
	v := newProgressView(&tty, path)
	v.tty = true
	add(5, false)
	v.poll()
	if got, want := tty.String(), "\rTestX: 5/100 iterations, 1 failure, 2 partial orders, 100 it/s, ETA 1s"; got != want {
		t.Fatalf("terminal line %q, want %q", got, want)
	}
	// go test's output goes above the line, which is drawn again.
	tty.Reset()
	v.Write([]byte("ok pkg\n"))
	if got, want := tty.String(), "\r"+strings.Repeat(" ", 70)+"\rok pkg\n\rTestX: 5/100 iterations, 1 failure, 2 partial orders, 100 it/s, ETA 1s"; got != want {
		t.Fatalf("output under the line %q, want %q", got, want)
	}
	// Several lines in one poll: only the last is drawn.
	add(50, false)
	add(100, true)
	tty.Reset()
	v.poll()
	if got, want := tty.String(), "\rTestX: 100/100 iterations, 1 failure, 50 partial orders, 100 it/s, done\n"; got != want {
		t.Fatalf("terminal end %q, want %q", got, want)
	}

	path = filepath.Join(t.TempDir(), "p.jsonl")
	var plain bytes.Buffer
	v = newProgressView(&plain, path)
	for its := 1; its <= 30; its++ {
		add(its, false)
	}
	add(30, true)
	v.poll()
	lines := strings.Split(strings.TrimSpace(plain.String()), "\n")
	var its []string
	for _, l := range lines {
		its = append(its, strings.Fields(l)[1])
	}
	if want := []string{"10/100", "20/100", "30/100", "30/100"}; !slices.Equal(its, want) {
		t.Fatalf("plain lines at %v, want %v:\n%s", its, want, plain.String())
	}
}

// TestParseTestArgs checks the split between morpheus test's flags and go
// test's, and -count=1 by default.
func TestParseTestArgs(t *testing.T) {
	o, err := parseTestArgs([]string{"-v", "-iterations", "50", "-run", "X", "-shard=1/3", "-json", "-report=r", "./..."})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-count=1", "-v", "-run", "X", "./..."}; !slices.Equal(o.goArgs, want) {
		t.Errorf("go test args %v, want %v", o.goArgs, want)
	}
	if want := []string{"MORPHEUS_ITERATIONS=50", "MORPHEUS_SHARD=1/3"}; !slices.Equal(o.env, want) {
		t.Errorf("environment %v, want %v", o.env, want)
	}
	if !o.json || o.report != "r" {
		t.Errorf("json %v, report %q", o.json, o.report)
	}
	o, err = parseTestArgs([]string{"-count=3", "./x"})
	if err != nil || !slices.Equal(o.goArgs, []string{"-count=3", "./x"}) {
		t.Errorf("with -count: %v, %v", o.goArgs, err)
	}
}

// Off a terminal, a Check without a planned count gets a plain line at
// least every 10 s of its time, and its last line says it was interrupted.
func TestProgressViewUnlimited(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.jsonl")
	for s := 2; s <= 30; s += 2 {
		p := &results.Progress{Test: "TestX", Iterations: s * 100, ElapsedNS: int64(time.Duration(s) * time.Second)}
		if err := results.Append(path, p); err != nil {
			t.Fatal(err)
		}
	}
	last := &results.Progress{Test: "TestX", Iterations: 3100, ElapsedNS: int64(31 * time.Second), Done: true, Interrupted: true}
	if err := results.Append(path, last); err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	newProgressView(&plain, path).poll()
	want := "TestX: 1000 iterations, 0 failures, 0 partial orders, 100 it/s\n" +
		"TestX: 2000 iterations, 0 failures, 0 partial orders, 100 it/s\n" +
		"TestX: 3000 iterations, 0 failures, 0 partial orders, 100 it/s\n" +
		"TestX: 3100 iterations, 0 failures, 0 partial orders, 100 it/s, interrupted\n"
	if plain.String() != want {
		t.Fatalf("plain lines:\n%s\nwant:\n%s", plain.String(), want)
	}
}

// A rewritten test's heartbeat lines: off a terminal a plain line once
// every 10 s of the test's time, counting schedules, and none when it ends
// (the summary gives its verdict); on a terminal the line appears after a
// second and is cleared when the test ends.
func TestProgressHeartbeat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.jsonl")
	add := func(its int, el time.Duration, done bool) {
		p := &results.Progress{Test: "TestX", Package: "m/p", Iterations: its, ElapsedNS: int64(el), Done: done, Heartbeat: true}
		if err := results.Append(path, p); err != nil {
			t.Fatal(err)
		}
	}
	var plain bytes.Buffer
	v := newProgressView(&plain, path)
	for s := 2; s <= 24; s += 2 {
		add(s*100, time.Duration(s)*time.Second, false)
	}
	add(2500, 25*time.Second, true)
	v.poll()
	v.finish()
	want := "m/p TestX: 1000 schedules, 0 failures, 100 schedules/s\nm/p TestX: 2000 schedules, 0 failures, 100 schedules/s\n"
	if got := plain.String(); got != want {
		t.Errorf("plain heartbeat lines %q, want %q", got, want)
	}

	path = filepath.Join(t.TempDir(), "p.jsonl")
	var tty bytes.Buffer
	v = newProgressView(&tty, path)
	v.tty = true
	add(10, 500*time.Millisecond, false)
	v.poll()
	if tty.Len() != 0 {
		t.Errorf("a terminal shows a heartbeat before a second: %q", tty.String())
	}
	add(200, 2*time.Second, false)
	add(300, 3*time.Second, true)
	v.poll()
	line := "m/p TestX: 200 schedules, 0 failures, 100 schedules/s"
	if got, want := tty.String(), "\r"+line+"\r"+strings.Repeat(" ", len(line))+"\r"; got != want {
		t.Errorf("terminal heartbeat %q, want %q", got, want)
	}
}
