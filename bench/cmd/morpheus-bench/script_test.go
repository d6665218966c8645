package main

import (
	"path/filepath"
	"testing"

	"github.com/morpheus-go/morpheus/internal/scripttest"
)

// TestScripts runs the scripts of the benchmarks in testdata/script (the
// language is internal/scripttest's), each a parallel subtest, as
// cmd/morpheus's scripts run: "morpheus bench SUITE" runs the morpheus
// command built from this clone, which runs this package's command
// ($MORPHEUS_BENCH, built once).
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	scripttest.RunAll(t, scripttest.Config{
		Root: root,
		Bin:  morpheusBinary(t),
		Env:  []string{"MORPHEUS_BENCH=" + cliBinary(t)},
	})
}
