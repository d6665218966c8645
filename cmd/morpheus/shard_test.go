package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/morpheus-go/morpheus/internal/results"
)

// TestShardsMergeToOneRun runs the test binary of internal/clitest as 4
// shard processes at once and once unsharded, with the same seeds, and checks
// that the merged shard results equal the unsharded run's: for the passing
// test everything but the wall time, for the failing one the lowest failing
// iteration, its (shrunk) trace and the coverage below it.
func TestShardsMergeToOneRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a test binary 5 times")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "clitest.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./internal/clitest")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the test binary: %v\n%s", err, out)
	}
	run := func(name, shard string) *exec.Cmd {
		work := filepath.Join(dir, name)
		if err := os.Mkdir(work, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-test.run", "^(TestPingPong|TestRare)$")
		cmd.Env = append(os.Environ(), "MORPHEUS_CLITEST="+work, "MORPHEUS_ITERATIONS=400",
			"MORPHEUS_RESULTS="+filepath.Join(dir, name+".jsonl"), "MORPHEUS_SHARD="+shard)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	var cmds []*exec.Cmd
	for k := range 4 {
		cmds = append(cmds, run(fmt.Sprintf("shard%d", k), fmt.Sprintf("%d/4", k)))
	}
	cmds = append(cmds, run("whole", ""))
	for _, c := range cmds {
		_ = c.Wait() // TestRare fails: the processes exit 1
	}
	read := func(names ...string) map[string]*results.Record {
		var all []*results.Record
		for _, n := range names {
			recs, err := results.ReadFile(filepath.Join(dir, n+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				r.Package, r.ElapsedNS = "", 0 // each process ran in its own directory
				if r.Failure != nil {
					r.Failure.Path = ""
				}
			}
			all = append(all, recs...)
		}
		merged, err := results.Merge(all, false)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]*results.Record{}
		for _, r := range merged {
			m[r.Test] = r
		}
		return m
	}
	shards, whole := read("shard0", "shard1", "shard2", "shard3"), read("whole")
	if len(shards) != 2 || len(whole) != 2 {
		t.Fatalf("records for %d and %d tests, want 2", len(shards), len(whole))
	}
	pass, want := shards["TestPingPong"], whole["TestPingPong"]
	if pass.Shards != 4 || pass.Iterations != 400 || pass.PartialOrders < 10 {
		t.Fatalf("merged: %d shards, %d iterations, %d partial orders", pass.Shards, pass.Iterations, pass.PartialOrders)
	}
	pass.Shards = 0
	if !reflect.DeepEqual(pass, want) {
		t.Errorf("merged shards of TestPingPong differ from the whole run:\n%+v\n%+v", pass, want)
	}
	fail, wantFail := shards["TestRare"], whole["TestRare"]
	if fail.Failure == nil || wantFail.Failure == nil {
		t.Fatalf("TestRare did not fail: %+v, %+v", fail.Failure, wantFail.Failure)
	}
	if fail.Failure.Iteration == 0 {
		t.Errorf("TestRare failed at iteration 0: the test shows nothing about shards")
	}
	if !reflect.DeepEqual(fail.Failure, wantFail.Failure) || fail.Limit != wantFail.Limit || !reflect.DeepEqual(fail.Orders, wantFail.Orders) {
		t.Errorf("merged failure or coverage of TestRare differ from the whole run:\n%+v %d %d\n%+v %d %d",
			fail.Failure, fail.Limit, fail.PartialOrders, wantFail.Failure, wantFail.Limit, wantFail.PartialOrders)
	}
}
