package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// -json prints exactly {"trials":N,"cases":[{"name":…,"hit_ratio":{…}}],"geomean":{…}}.
func TestBenchSCTJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "sct", "-trials", "50", "-cases", "reorder_3,account", "-json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r struct {
		Trials int `json:"trials"`
		Cases  []struct {
			Name     string             `json:"name"`
			HitRatio map[string]float64 `json:"hit_ratio"`
		} `json:"cases"`
		Geomean map[string]float64 `json:"geomean"`
	}
	dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if dec.More() {
		t.Error("more than one JSON value printed")
	}
	if !strings.HasPrefix(out.String(), `{"trials":50,"cases":[{"name":"reorder_3","hit_ratio":{`) {
		t.Errorf("field order: %s", out.String())
	}
	strategies := []string{"random", "pct:2", "pct:3", "pct:5", "pos", "pos*", "random+ca", "pct:2+ca", "pct:3+ca", "pct:5+ca", "pos+ca", "pos*+ca"}
	if r.Trials != 50 || len(r.Cases) != 2 || r.Cases[0].Name != "reorder_3" || r.Cases[1].Name != "account" {
		t.Fatalf("%+v", r)
	}
	for _, s := range strategies {
		for _, c := range r.Cases {
			if v, ok := c.HitRatio[s]; !ok || v < 0 || v > 1 || math.Abs(v*50-math.Round(v*50)) > 1e-9 {
				t.Errorf("%s %s: ratio %v", c.Name, s, v)
			}
		}
		if g, ok := r.Geomean[s]; !ok || g < 1.0/50-1e-9 || g > 1 {
			t.Errorf("geomean %s = %v", s, g)
		}
	}
	if len(r.Geomean) != len(strategies) || r.Cases[1].HitRatio["pos*"] == 0 {
		t.Errorf("geomean %v, account %v", r.Geomean, r.Cases[1].HitRatio)
	}
}

func TestBenchSCTTableAndFixed(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "sct", "-trials", "40", "-cases", "stack,deadlock01"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"stack", "[3/43]", "deadlock01", "geo-mean", "pos* geo-mean", "best pct"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := run([]string{"bench", "sct", "-trials", "40", "-fixed", "-cases", "stack,deadlock01,WSQ"}, &out, &errb); code != 0 {
		t.Fatalf("-fixed: exit %d: %s\n%s", code, errb.String(), out.String())
	}
	if !strings.Contains(out.String(), "fixed variants") {
		t.Errorf("-fixed table:\n%s", out.String())
	}
	rows := 0
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) == 14 && strings.HasPrefix(f[1], "[") {
			rows++
			for _, v := range f[2:] {
				if v != "0" {
					t.Errorf("-fixed reports hits: %s", line)
				}
			}
		}
	}
	if rows != 3 {
		t.Errorf("%d case rows:\n%s", rows, out.String())
	}
	for _, args := range [][]string{{"-trials", "0"}, {"-nope"}, {"extra"}} {
		if code := run(append([]string{"bench", "sct"}, args...), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code := run([]string{"bench", "sct", "-trials", "1", "-cases", "nope"}, &out, &errb); code != 1 {
		t.Errorf("unknown case: exit %d, want 1", code)
	}
}
