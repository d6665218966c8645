package explore

import "github.com/morpheus-go/morpheus/internal/results"

// CoveragePoint is one sample of a run's coverage curve
// (morpheus.CoveragePoint).
type CoveragePoint struct{ Iteration, PartialOrders int }

// coveragePoints is how many samples a coverage curve has at most.
const coveragePoints = 100

// order records that iteration i ran the partial order po.
func (x *explorer) order(i int, po uint64) {
	x.mu.Lock()
	if first, ok := x.orders[po]; !ok || i < first {
		x.orders[po] = i
	}
	x.mu.Unlock()
}

// coverage fills res's partial-order count and curve from the iterations
// below the reported failure (or all that ran): the same whatever the number
// of workers, which may have run some iterations past a failure.
func (x *explorer) coverage(res *Result) {
	if x.orders == nil {
		return
	}
	limit := int(min(x.stopAt.Load(), int64(x.c.Shard.iteration(int64(x.done)))))
	if x.failure != nil && x.c.Hit == nil {
		limit = x.failure.Iteration
	}
	res.Orders, res.Limit = make(map[uint64]int, len(x.orders)), limit
	for po, i := range x.orders {
		if i < limit {
			res.Orders[po] = i
		}
	}
	res.PartialOrders = len(res.Orders)
	for _, p := range results.Curve(res.Orders, limit, coveragePoints) {
		res.Coverage = append(res.Coverage, CoveragePoint{Iteration: p.Iteration, PartialOrders: p.PartialOrders})
	}
}
