package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// bench sct -plain builds the plain-Go suite through the rewriter and runs
// it beside the csync version: the plain deadlock01, account and
// wronglock_3 are hit under random walk and pos*, their fixed variants
// never fail. Few trials, fixed seeds: the counts are deterministic.
func TestBenchSCTPlain(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	args := []string{"bench", "sct", "-plain", "-cache", cache, "-trials", "30",
		"-cases", "deadlock01,account,wronglock_3", "-strategies", "random,pos*"}
	// The command built once (cliBinary): it rewrites without the race
	// detector.
	code, out, errb := runCLI(t, append(args, "-json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r struct {
		Trials int `json:"trials"`
		Cases  []struct {
			Name  string             `json:"name"`
			Plain map[string]float64 `json:"plain"`
			CSync map[string]float64 `json:"csync"`
			Kind  map[string]string  `json:"plain_kind"`
		} `json:"cases"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	want := map[string]string{"deadlock01": "deadlock", "account": "assertion", "wronglock_3": "assertion"}
	if r.Trials != 30 || len(r.Cases) != 3 {
		t.Fatalf("%s", out)
	}
	for _, c := range r.Cases {
		for _, s := range []string{"random", "pos*"} {
			if c.Plain[s] == 0 || c.CSync[s] == 0 || c.Kind[s] != want[c.Name] {
				t.Errorf("%s with %s: plain %v (first failure %q, want %q), csync %v", c.Name, s, c.Plain[s], c.Kind[s], want[c.Name], c.CSync[s])
			}
		}
	}
	code, out, errb = runCLI(t, append(args, "-fixed")...)
	if code != 0 {
		t.Fatalf("fixed variants: exit %d: %s\n%s", code, errb, out)
	}
	if !strings.Contains(out, "fixed variants") || strings.Contains(out, "note:") {
		t.Errorf("fixed variants:\n%s", out)
	}
}
