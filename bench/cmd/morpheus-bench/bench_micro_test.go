package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchMicroJSON(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "micro", "-samples", "500", "-seed", "2", "-json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r struct {
		Samples int `json:"samples"`
		Cases   []struct {
			Name         string             `json:"name"`
			Program      [][3]any           `json:"program"`
			POCount      int                `json:"po_count"`
			MaxDepth     int                `json:"max_depth"`
			MaxConflicts int                `json:"max_conflicts"`
			Coverage     map[string]float64 `json:"coverage"`
			Covered      map[string]int     `json:"covered"`
		} `json:"cases"`
		Geomean map[string]float64 `json:"geomean"`
	}
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value printed")
	}
	if r.Samples != 500 || len(r.Cases) != 10 {
		t.Fatalf("samples %d, %d cases", r.Samples, len(r.Cases))
	}
	names := []string{"random-exact", "random", "pct", "rapos", "pos", "pos*"}
	for _, c := range r.Cases {
		if len(c.Program) != 16 || c.POCount < 2 || c.MaxDepth < 1 || c.MaxConflicts < 1 {
			t.Errorf("%s: %d events, %d partial orders", c.Name, len(c.Program), c.POCount)
		}
		for i, e := range c.Program {
			if e[0] != float64(i/4) || e[2] != "w" {
				t.Errorf("%s: event %d = %v, want thread %d writing", c.Name, i, e, i/4)
			}
		}
		for _, s := range names {
			if _, ok := c.Coverage[s]; !ok || c.Covered[s] < 1 || c.Covered[s] > c.POCount {
				t.Errorf("%s: %s coverage %v covered %d", c.Name, s, c.Coverage[s], c.Covered[s])
			}
		}
		if c.Covered["random-exact"] != c.POCount || c.Coverage["random-exact"] <= 0 {
			t.Errorf("%s: random-exact not exact", c.Name)
		}
	}
	if len(r.Geomean) != len(names) || r.Geomean["pos*"] < 1.0/500 {
		t.Errorf("geomean %v", r.Geomean)
	}
}

func TestBenchMicroTable(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "micro", "-samples", "300", "-reads"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"50% reads", "pos*-noreads", "Uniform-1", "Skewed-5", "geo-mean", "0("} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
	if code := run([]string{"bench", "micro", "-samples", "0"}, &out, &errb); code != 2 {
		t.Errorf("-samples 0: exit %d, want 2", code)
	}
	if code := run([]string{"bench", "micro", "-nope"}, &out, &errb); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
}
