package rt

import (
	"testing"
	"time"
)

// EnvBudget: the default has a floor, a factor and a limit; two fields
// leave the limit out, three set it (0: none); anything else is an error.
func TestScaledBudget(t *testing.T) {
	for _, c := range []struct {
		in     string
		floor  time.Duration
		factor float64
		limit  time.Duration
	}{
		{"", DefaultBudgetFloor, DefaultBudgetFactor, DefaultBudgetLimit},
		{"off", 0, 0, 0},
		{"2s,4", 2 * time.Second, 4, 0},
		{"0s,2,30s", 0, 2, 30 * time.Second},
		{"1s,3,0", time.Second, 3, 0},
	} {
		floor, factor, limit, err := scaledBudget(c.in)
		if err != nil || floor != c.floor || factor != c.factor || limit != c.limit {
			t.Errorf("%q: %v, %v, %v, %v; want %v, %v, %v", c.in, floor, factor, limit, err, c.floor, c.factor, c.limit)
		}
	}
	for _, in := range []string{"1s", "1s,3,1m,2", "1s,0", "1s,3,-1m", "x,3", "1s,3,y"} {
		if _, _, _, err := scaledBudget(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
