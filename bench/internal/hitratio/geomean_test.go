package hitratio

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestFloor(t *testing.T) {
	for _, c := range []struct {
		trials []int
		want   float64
	}{
		{[]int{100}, 0.01},
		{[]int{10000, 100}, 0.01}, // the smaller number of trials
		{[]int{100, 10000}, 0.01},
		{[]int{0, 1000}, 0.001}, // an exact side has no floor of its own
		{[]int{0}, 0},
		{nil, 0},
	} {
		if got := Floor(c.trials...); !near(got, c.want) {
			t.Errorf("Floor(%v) = %v, want %v", c.trials, got, c.want)
		}
	}
}

func TestGeomean(t *testing.T) {
	for _, c := range []struct {
		name  string
		v     []float64
		floor float64
		want  float64
	}{
		{"a zero counts as the floor", []float64{0.25, 0}, 0.01, 0.05},
		{"a figure below the floor counts as the floor", []float64{0.25, 0.0001}, 0.01, 0.05},
		{"figures above the floor as they are", []float64{0.5, 0.08}, 0.01, 0.2},
		{"all zero: the floor", []float64{0, 0, 0}, 0.001, 0.001},
		{"exact figures, no floor", []float64{1e-8, 1e-6}, 0, 1e-7},
		{"a zero without a floor", []float64{0.5, 0}, 0, 0},
		{"one figure", []float64{0.3}, 0.01, 0.3},
	} {
		if got := Geomean(c.v, c.floor); math.Abs(got-c.want) > 1e-12*max(1, c.want) {
			t.Errorf("%s: Geomean(%v, %v) = %v, want %v", c.name, c.v, c.floor, got, c.want)
		}
	}
	if g := Geomean(nil, 0.01); !math.IsNaN(g) {
		t.Errorf("no figures: %v, want NaN", g)
	}
}

func TestFloorNote(t *testing.T) {
	if got, want := floorNote(Floor(1000)), "Geo-means count a ratio below 1/1000 (a case never hit) as 1/1000."; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := floorNote(0); got != "Geo-means take the figures as they are (no floor)." {
		t.Errorf("%q", got)
	}
}
