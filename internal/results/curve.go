package results

import "slices"

// Point is one sample of a coverage curve: the distinct partial orders among
// the first Iteration iterations.
type Point struct {
	Iteration     int `json:"iteration"`
	PartialOrders int `json:"partial_orders"`
}

// Curve samples, at up to points evenly spaced iteration counts from 1 to
// limit, how many of the partial orders in first (partial order -> lowest
// iteration that ran it) were seen by then.
func Curve(first map[uint64]int, limit, points int) []Point {
	if limit <= 0 || points <= 0 {
		return nil
	}
	its := make([]int, 0, len(first))
	for _, i := range first {
		its = append(its, i)
	}
	slices.Sort(its)
	var out []Point
	seen := 0
	for k := 1; k <= points; k++ {
		n := (limit*k + points - 1) / points // ceil
		if len(out) > 0 && out[len(out)-1].Iteration == n {
			continue
		}
		for seen < len(its) && its[seen] < n {
			seen++
		}
		out = append(out, Point{Iteration: n, PartialOrders: seen})
	}
	return out
}
