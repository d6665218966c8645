package main

import (
	"strings"
	"testing"
	"time"
)

// TestParseFuzzSummary: bench fuzz -coverage reads the summaries of this
// build and of builds from before the skipped count.
func TestParseFuzzSummary(t *testing.T) {
	tests := []struct {
		name, text string
		want       fuzzCampaign
		err        string
	}{
		{
			name: "before skipping",
			text: `mode server: 400 runs in 45.491s (9 runs/s this session)
  events 21, observed unordered pairs 65 (last new pair at run 267, 133 runs since)
  constraints 396: 74 satisfied, 304 timed out (infeasible), 18 not reached
  error runs 60 (hung 0)
    run 95: exit 1: fuzzdemo: wrong result: worker 2 computed 0 for job 12, expected 84
`,
			want: fuzzCampaign{runs: 400, elapsed: 45491 * time.Millisecond, satisfied: 74, timedOut: 304, notReached: 18, pairs: 65, errors: 60, bug: true},
		},
		{
			name: "with skipping, no error run",
			text: `mode server: 64 runs in 5.663s (11 runs/s this session)
  planner done: every pair of the first trace observed unordered or predicted ordered, or its sweeps (-rounds) over
  events 21, observed unordered pairs 81 (last new pair at run 61, 3 runs since)
  constraints 60: 39 satisfied, 21 timed out (infeasible), 0 not reached; 98 skipped as predicted infeasible
  error runs 0 (hung 0)
`,
			want: fuzzCampaign{runs: 64, elapsed: 5663 * time.Millisecond, satisfied: 39, timedOut: 21, skipped: 98, pairs: 81},
		},
		{name: "no constraints line", text: "mode server: 4 runs in 1s (4 runs/s)\n  observed unordered pairs 1\n  error runs 0 (hung 0)\n", err: "unexpected summary"},
		{name: "a bad duration", text: "mode server: 4 runs in 0s (4 runs/s)\n  observed unordered pairs 1\n  constraints 1: 1 satisfied, 0 timed out (infeasible), 0 not reached\n  error runs 0 (hung 0)\n", err: "expected a positive duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFuzzSummary(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got.runs != tt.want.runs || got.elapsed != tt.want.elapsed || got.satisfied != tt.want.satisfied ||
				got.timedOut != tt.want.timedOut || got.notReached != tt.want.notReached || got.skipped != tt.want.skipped ||
				got.pairs != tt.want.pairs || got.errors != tt.want.errors || got.bug != tt.want.bug {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestMedianAndNum(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median %v", m)
	}
	if m := median(nil); m != 0 {
		t.Errorf("median of nothing %v", m)
	}
	for v, want := range map[float64]string{400: "400", 95.84: "95.8", 0: "0"} {
		if got := num(v); got != want {
			t.Errorf("num(%v) = %q, want %q", v, got, want)
		}
	}
}
