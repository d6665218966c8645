package strategy_test

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

func TestParse(t *testing.T) {
	for name, want := range map[string]string{
		"random":       "random",
		"pct:3":        "pct:3",
		"pct:03:100":   "pct:3:100",
		"pos":          "pos",
		"pos*":         "pos*",
		"pos*-noreads": "pos*-noreads",
		"rapos":        "rapos",
		"dfs":          "dfs",
		"dfs:0":        "dfs:0",
		"dfs:2":        "dfs:2",
		"pos+ca":       "pos+ca",
		"pct:2:9+ca":   "pct:2:9+ca",
		"dfs:1+ca":     "dfs:1+ca",
	} {
		s, err := strategy.Parse(name)
		if err != nil {
			t.Errorf("Parse(%q): %v", name, err)
			continue
		}
		if s.Name() != want {
			t.Errorf("Parse(%q).Name() = %q, want %q", name, s.Name(), want)
		}
		again, err := strategy.Parse(s.Name())
		if err != nil || again.Name() != s.Name() {
			t.Errorf("Parse(%q) does not round-trip: %v", s.Name(), err)
		}
	}
	if _, ok := mustParse(t, "dfs").(strategy.Exhauster); !ok {
		t.Error("dfs is not an Exhauster")
	}
	if ca, ok := mustParse(t, "rapos+ca").(*strategy.CA); !ok || ca.Inner().Name() != "rapos" {
		t.Error("rapos+ca is not CA around rapos")
	}
}

func mustParse(t *testing.T, name string) strategy.Strategy {
	s, err := strategy.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseErrors(t *testing.T) {
	for name, want := range map[string]string{
		"":          "unknown strategy",
		"walk":      "unknown strategy",
		"POS":       "unknown strategy",
		"random:2":  "takes no parameters",
		"pos:":      "takes no parameters",
		"pct":       "want pct:D or pct:D:K",
		"pct:":      "depth D must be an integer",
		"pct:0":     "depth D must be an integer in [1,",
		"pct:x":     "depth D must be",
		"pct:3:0":   "step bound K must be",
		"pct:3:5:7": "want pct:D or pct:D:K",
		"dfs:-1":    "preemption bound B must be",
		"dfs:1:2":   "want dfs or dfs:B",
		"pos+ca+ca": "given twice",
		"walk+ca":   "unknown strategy",
		"replay":    "recorded trace",
		"pct:99999": "depth D must be an integer in [1, 1000]",
	} {
		_, err := strategy.Parse(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error = %v, want one containing %q", name, err, want)
		}
	}
}

func TestNamesAreParseable(t *testing.T) {
	for _, form := range strategy.Names() {
		name := strings.NewReplacer("D", "2", "K", "10", "B", "1", "NAME", "pos").Replace(form)
		if _, err := strategy.Parse(name); err != nil {
			t.Errorf("Names lists %q, but Parse(%q): %v", form, name, err)
		}
	}
}
