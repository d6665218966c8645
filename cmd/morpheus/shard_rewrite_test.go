package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestShardRewrittenMergeToOneRun runs morpheus test on the module in
// testdata/shardmod at its defaults (strategy, budget) once unsharded with
// -jobs 6 and as 3 shards with -jobs 2 (-shard i/3), the 4 commands at once,
// each in its own copy of the module as on its own machine (no run shares
// another's build, so none waits for another's): the shards' 3×2 test
// processes of each package are the unsharded run's 6, and each shard
// builds only the packages it runs processes of. It checks that morpheus merge
// of the shards' result files gives the unsharded run's -json records,
// field by field but for the wall times, a failing test's schedules and
// steps included, and its corpus, file by file.
func TestShardRewrittenMergeToOneRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("rewrites and runs a module 4 times")
	}
	bin := cliBinary(t)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	mod := func(name string) string {
		d := filepath.Join(dir, name)
		copyModule(t, "testdata/shardmod", d)
		return d
	}
	run := func(d string, args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append([]string{"test", "-cache", cache, "-report=", "-json"}, args...)...)
		cmd.Dir = d
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		return cmd
	}
	whole := mod("whole")
	wholeRun := run(whole, "-jobs", "6", "./...")
	var wantJSON []byte
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		wantJSON, _ = wholeRun.Output() // TestLost fails: exit 1
	}()
	var files []string
	for i := range 3 {
		d := mod(fmt.Sprintf("shard%d", i))
		f := filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))
		files = append(files, f)
		cmd := run(d, "-jobs", "2", "-shard", fmt.Sprintf("%d/3", i), "-results", f, "./...")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cmd.Run(); err != nil && !strings.Contains(stderr.String(), "tests failed under control") {
				t.Errorf("shard %d: %v\n%s", i, err, &stderr)
			}
		}()
	}
	wg.Wait()
	// The shards split the packages' groups of processes in blocks of 2:
	// a's three groups and b's, so shard 0 builds a only, shard 2 b only.
	for i, want := range []string{"a", "a b", "b"} {
		if got := resultPackages(t, files[i]); got != want {
			t.Errorf("shard %d/3 built %q, want %q", i, got, want)
		}
		// It loaded and rewrote those only: its overlay replaces their
		// files and no others.
		if got := overlayPackages(t, cache, filepath.Join(dir, fmt.Sprintf("shard%d", i))); got != want {
			t.Errorf("shard %d/3 rewrote %q, want %q", i, got, want)
		}
	}
	if got := overlayPackages(t, cache, whole); got != "a b" {
		t.Errorf("the unsharded run rewrote %q, want \"a b\"", got)
	}
	merged := mod("merged")
	cmd := exec.Command(bin, append([]string{"merge", "-json", "-o", filepath.Join(dir, "merged.jsonl")}, files...)...)
	cmd.Dir = merged
	gotJSON, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("morpheus merge: %v (want exit 1: TestLost fails)\n%s", err, gotJSON)
	}
	want, got := jsonRecords(t, wantJSON, whole), jsonRecords(t, gotJSON, merged)
	if len(want) != 3 || len(got) != len(want) {
		t.Fatalf("%d records merged, %d unsharded, want 3:\n%s\n%s", len(got), len(want), gotJSON, wantJSON)
	}
	for k, w := range want {
		g := got[k]
		if w["failure"] != nil && (w["test"] != "TestLost" || w["schedule"] == 0.0) {
			t.Errorf("want TestLost to fail after its first schedule: %v", w)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("record %d: merged shards differ from the unsharded run:\n%v\n%v", k, g, w)
		}
	}
	if w, g := corpusFiles(t, whole), corpusFiles(t, merged); len(w) != 1 || !reflect.DeepEqual(g, w) {
		t.Errorf("corpus: merged %v, unsharded %v (want one trace, the same)", keys(g), keys(w))
	}
	// The merged result file is one unsharded run's: it merges alone.
	cmd = exec.Command(bin, "merge", "-json", "-C", t.TempDir(), filepath.Join(dir, "merged.jsonl"))
	again, _ := cmd.Output()
	if a := jsonRecords(t, again, ""); len(a) != 3 || a[0]["schedules"] != want[0]["schedules"] {
		t.Errorf("the merged file merged again: %s", again)
	}
}

// resultPackages returns the last element of the import path of each
// package a result file has a line of, in order.
func resultPackages(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r runLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s: %v: %q", file, err, l)
		}
		if r.Kind == "package" {
			out = append(out, filepath.Base(r.Package.Path))
		}
	}
	return strings.Join(out, " ")
}

// overlayPackages returns the directories, relative to the module at
// root, whose files the overlay of root's build (in the cache) replaces,
// sorted.
func overlayPackages(t *testing.T, cache, root string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cache, "mod", "*", "overlay.json"))
	dirs := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var o struct{ Replace map[string]string }
		if err := json.Unmarshal(data, &o); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for name := range o.Replace {
			if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") {
				dirs[filepath.Dir(rel)] = true
			}
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(dirs)), " ")
}

// copyModule copies the testdata module src to dst (its go.mod is
// go.mod.txt in testdata, which the go command would otherwise see as a
// module of its own and leave out of this one).
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		rel = strings.TrimSuffix(rel, ".txt")
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// jsonRecords decodes -json lines, without their wall times and with trace
// paths relative to the module at root.
func jsonRecords(t *testing.T, out []byte, root string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		delete(r, "seconds")
		for _, f := range []string{"trace", "log"} {
			if p, ok := r[f].(string); ok && root != "" {
				r[f], _ = filepath.Rel(root, p)
			}
		}
		recs = append(recs, r)
	}
	return recs
}

// corpusFiles maps the files under root's testdata/morpheus directories to
// their contents.
func corpusFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(path), "/testdata/morpheus/") {
			data, _ := os.ReadFile(path)
			rel, _ := filepath.Rel(root, path)
			m[rel] = string(data)
		}
		return nil
	})
	return m
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
