package raftbench

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/bench/internal/systems/raft"
)

// A short run: forget-applied shows after any crash of a node that applied
// appends, so a few iterations in twenty hit it; the correct harness never
// fails. The tables and JSON print what Run measured.
func TestRun(t *testing.T) {
	var done []string
	r, err := Run(Config{Nodes: 3, Bugs: []raft.Bug{raft.ForgetApplied}, Strategies: []string{"random", "pos"},
		Trials: 20, Iterations: 5, Seed: 1,
		BugDone:   func(b, s string, _ hitratio.Cell) { done = append(done, b+"/"+s) },
		FixedDone: func(f FixedRun) { done = append(done, "fixed/"+f.Strategy) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 4 || done[0] != "forget-applied/random" || done[3] != "fixed/pos" {
		t.Errorf("done: %v", done)
	}
	for j, s := range r.Matrix.Strategies {
		c := r.Matrix.Cells[0][j]
		if c.Hits == 0 || c.Iterations != 20 || c.FirstHitIteration < 0 || c.FirstHitIteration >= 20 {
			t.Errorf("%s: %+v", s, c)
		}
	}
	// 5 iterations split over 2 strategies: 3 and 2.
	if len(r.Fixed) != 2 || r.Fixed[0].Iterations != 3 || r.Fixed[1].Iterations != 2 || r.Fixed[0].Failures+r.Fixed[1].Failures != 0 || r.Fixed[0].Ops == 0 {
		t.Errorf("fixed: %+v", r.Fixed)
	}
	var b bytes.Buffer
	WriteTables(&b, r)
	for _, re := range []string{
		`(?m)^ +bug +random +pos *$`,
		`(?m)^ +forget-applied +0\.[0-9]{4} +0\.[0-9]{4} *$`,
		`(?m)^ +forget-applied +[0-9.]+ s / #[0-9]+ +[0-9.]+ s / #[0-9]+ *$`,
		`(?m)^ +total +5 +0 +0 `,
	} {
		if !regexp.MustCompile(re).MatchString(b.String()) {
			t.Errorf("tables lack %s:\n%s", re, b.String())
		}
	}
	b.Reset()
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Bugs  []hitratio.CaseJSON `json:"bugs"`
		Fixed []fixedJSON         `json:"fixed"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || len(out.Bugs) != 1 || out.Bugs[0].FirstHitIteration["pos"] == nil || len(out.Fixed) != 2 {
		t.Errorf("%v: %s", err, b.String())
	}
	// Without trials, no bug table.
	r, err = Run(Config{Nodes: 3, Strategies: []string{"pos"}, Iterations: 1})
	if err != nil || r.Matrix != nil || len(r.Fixed) != 1 {
		t.Fatalf("%v %+v", err, r)
	}
}
