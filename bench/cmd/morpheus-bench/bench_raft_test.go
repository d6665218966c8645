package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// -json prints one object: per bug the hit ratio and first hit of every
// strategy, and per strategy the correct harness's failures and throughput.
func TestBenchRaftJSON(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"bench", "raft", "-trials", "20", "-iterations", "12", "-bugs", "forget-applied", "-strategies", "random,pos", "-json"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r struct {
		Trials int    `json:"trials"`
		Seed   uint64 `json:"seed"`
		Nodes  int    `json:"nodes"`
		Bugs   []struct {
			Name              string              `json:"name"`
			HitRatio          map[string]float64  `json:"hit_ratio"`
			FirstHitSeconds   map[string]*float64 `json:"first_hit_seconds"`
			FirstHitIteration map[string]*int     `json:"first_hit_iteration"`
		} `json:"bugs"`
		Fixed []struct {
			Strategy         string  `json:"strategy"`
			Iterations       int     `json:"iterations"`
			Failures         int     `json:"failures"`
			Violations       int     `json:"violations"`
			Seconds          float64 `json:"seconds"`
			IterationsPerSec float64 `json:"iterations_per_second"`
			ClientOpsPerSec  float64 `json:"client_ops_per_second"`
			StepsPerSec      float64 `json:"steps_per_second"`
		} `json:"fixed"`
	}
	dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if r.Trials != 20 || r.Seed != 1 || r.Nodes != 3 || len(r.Bugs) != 1 || r.Bugs[0].Name != "forget-applied" || len(r.Fixed) != 2 {
		t.Fatalf("%+v", r)
	}
	for _, s := range []string{"random", "pos"} {
		b := r.Bugs[0]
		// Bug (b) shows after any crash of a node that applied appends:
		// a few iterations in twenty find it.
		if b.HitRatio[s] <= 0 || b.FirstHitSeconds[s] == nil || b.FirstHitIteration[s] == nil || *b.FirstHitIteration[s] >= 20 {
			t.Errorf("%s: ratio %v, first %v / %v", s, b.HitRatio[s], b.FirstHitSeconds[s], b.FirstHitIteration[s])
		}
	}
	for _, f := range r.Fixed {
		if f.Iterations != 6 || f.Failures != 0 || f.Violations != 0 || f.IterationsPerSec <= 0 || f.ClientOpsPerSec <= 0 || f.StepsPerSec <= 0 {
			t.Errorf("fixed: %+v", f)
		}
	}
}

func TestBenchRaftTableAndUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "raft", "-trials", "0", "-iterations", "7", "-strategies", "random,pct:5"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"Correct harness, 3 nodes, seed 1: failures must be 0.", "iterations/s", "client ops/s", "random  ", "pct:5", "total           7         0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "hit ratios") {
		t.Errorf("-trials 0 printed the bug table:\n%s", out.String())
	}
	for _, args := range [][]string{
		{"-bugs", "nosuch"}, {"-nodes", "4"}, {"-strategies", "bogus"}, {"-trials", "-1"}, {"extra"},
	} {
		var o, e bytes.Buffer
		if code := run(append([]string{"bench", "raft"}, args...), &o, &e); code != 2 {
			t.Errorf("%v: exit %d, want 2; stderr %s", args, code, e.String())
		}
	}
	var o, e bytes.Buffer
	run([]string{"bench", "raft", "-bugs", "nosuch"}, &o, &e)
	if !strings.Contains(e.String(), `unknown bug "nosuch"`) {
		t.Errorf("stderr: %s", e.String())
	}
}
