package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// bench sct -plain builds the plain-Go suite through the rewriter and runs
// it beside the csync version: the plain deadlock01, account and
// wronglock_3 are hit under random walk and pos*, their fixed variants
// never fail. Few trials, fixed seeds: the counts are deterministic.
func TestBenchSCTPlain(t *testing.T) {
	cache := t.TempDir()
	args := []string{"bench", "sct", "-plain", "-cache", cache, "-trials", "30",
		"-cases", "deadlock01,account,wronglock_3", "-strategies", "random,pos*"}
	var out, errb bytes.Buffer
	if code := run(append(args, "-json"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
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
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	want := map[string]string{"deadlock01": "deadlock", "account": "assertion", "wronglock_3": "assertion"}
	if r.Trials != 30 || len(r.Cases) != 3 {
		t.Fatalf("%s", out.String())
	}
	for _, c := range r.Cases {
		for _, s := range []string{"random", "pos*"} {
			if c.Plain[s] == 0 || c.CSync[s] == 0 || c.Kind[s] != want[c.Name] {
				t.Errorf("%s with %s: plain %v (first failure %q, want %q), csync %v", c.Name, s, c.Plain[s], c.Kind[s], want[c.Name], c.CSync[s])
			}
		}
	}
	out.Reset()
	errb.Reset()
	if code := run(append(args, "-fixed"), &out, &errb); code != 0 {
		t.Fatalf("fixed variants: exit %d: %s\n%s", code, errb.String(), out.String())
	}
	if !strings.Contains(out.String(), "fixed variants") || strings.Contains(out.String(), "note:") {
		t.Errorf("fixed variants:\n%s", out.String())
	}
}
