package driver_test

import (
	"os"
	"path/filepath"
	"testing"
)

// A test that re-runs its own binary to see it crash passes as under go
// test: the child does not inherit the driver's settings, so it neither
// reports its crash as the parent's failure nor saves its traces where
// the parent's go; it runs with rt's defaults, its traces in its own
// temporary directory.
func TestChildProcess(t *testing.T) {
	cfg := testdataConfig(t, "neighbours", 2, 1)
	tmp := t.TempDir()
	cfg.Env = append(cfg.Env, "TMPDIR="+tmp)
	cfg.Run = "^TestCrasher$"
	sum := explore(t, cfg)
	ts := find(sum, "TestCrasher")
	if ts == nil || ts.Failure != "" {
		t.Fatalf("TestCrasher: %+v; tests %+v", ts, sum.Packages[0].Tests)
	}
	traces := filepath.Join(filepath.Dir(filepath.Dir(sum.Packages[0].Binary)), "traces")
	if saved, _ := os.ReadDir(traces); len(saved) != 0 {
		t.Errorf("the children saved %d traces with the parent's", len(saved))
	}
	if saved, _ := os.ReadDir(filepath.Join(tmp, "morpheus-rewrite", "traces")); len(saved) == 0 {
		t.Errorf("the children saved no trace of their crash in their own temporary directory")
	}
}
