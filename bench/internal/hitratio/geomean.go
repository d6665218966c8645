package hitratio

import (
	"fmt"
	"math"
)

// Floor returns the geo-mean floor of figures measured over the given
// numbers of trials: 1/n for the smallest n, or 0 for none (exact figures).
// Counts below 1 are ignored.
func Floor(trials ...int) float64 {
	n := 0
	for _, t := range trials {
		if t >= 1 && (n == 0 || t < n) {
			n = t
		}
	}
	if n == 0 {
		return 0
	}
	return 1 / float64(n)
}

// Geomean returns the geometric mean of v, each value below floor counting
// as floor (see the package doc). It is NaN for no values, and 0 if a value
// is 0 and floor is 0.
func Geomean(v []float64, floor float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range v {
		sum += math.Log(max(x, floor))
	}
	return math.Exp(sum / float64(len(v)))
}

// floorNote says under a table how its geo-means treat small ratios: "Geo-means
// count a ratio below 1/100 (a case never hit) as 1/100."
func floorNote(floor float64) string {
	if floor <= 0 {
		return "Geo-means take the figures as they are (no floor)."
	}
	return fmt.Sprintf("Geo-means count a ratio below %s (a case never hit) as %[1]s.", fraction(floor))
}

// fraction prints a floor as 1/n.
func fraction(floor float64) string {
	return fmt.Sprintf("1/%d", int(math.Round(1/floor)))
}
