package results

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
)

// Merge combines records into one per test (and package): the records of
// the shards of one run become the record of the whole run (see the package
// documentation). Records of a replay of a saved trace, which every shard
// runs before exploring, are kept once per trace. Records of one test must agree on strategy, seed and
// planned iterations, and be distinct shards of the same N, or a single
// unsharded record. Unless partial, every shard of N must be there. The
// result is sorted by package and test.
func Merge(recs []*Record, partial bool) ([]*Record, error) {
	type key struct{ pkg, test, replay string }
	groups := map[key][]*Record{}
	var keys []key
	for _, r := range recs {
		pkg := r.Package
		if pkg == "" {
			pkg = r.Dir
		}
		k := key{pkg, r.Test, r.Replay}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.pkg, b.pkg), cmp.Compare(a.test, b.test), cmp.Compare(a.replay, b.replay))
	})
	out := make([]*Record, 0, len(keys))
	for _, k := range keys {
		m, err := mergeGroup(groups[k], partial)
		if err != nil {
			return nil, fmt.Errorf("test %s: %v", k.test, err)
		}
		out = append(out, m)
	}
	return out, nil
}

func mergeGroup(g []*Record, partial bool) (*Record, error) {
	first := g[0]
	if len(g) == 1 && (first.Shard == "" || first.Shards > 0) || first.Replay != "" {
		c := *first // a whole run, one merged before, or a saved trace's replay (each shard replays it)
		return &c, nil
	}
	n := 0
	seen := map[int]bool{}
	for _, r := range g {
		if r.Strategy != first.Strategy || r.Seed != first.Seed || r.Planned != first.Planned {
			return nil, fmt.Errorf("records of different runs: strategy %s, seed %#x, %d iterations and strategy %s, seed %#x, %d iterations",
				first.Strategy, first.Seed, first.Planned, r.Strategy, r.Seed, r.Planned)
		}
		if r.Shards > 0 {
			return nil, fmt.Errorf("a merged record among %d records", len(g))
		}
		if r.Shard == "" {
			if len(g) > 1 {
				return nil, fmt.Errorf("an unsharded record among %d records", len(g))
			}
			c := *r
			return &c, nil
		}
		i, rn, err := ParseShard(r.Shard)
		if err != nil {
			return nil, err
		}
		if n != 0 && rn != n {
			return nil, fmt.Errorf("shards of %d and of %d", n, rn)
		}
		n = rn
		if seen[i] {
			return nil, fmt.Errorf("shard %s twice", r.Shard)
		}
		seen[i] = true
	}
	if len(seen) != n && !partial {
		var missing []string
		for i := range n {
			if !seen[i] {
				missing = append(missing, fmt.Sprintf("%d/%d", i, n))
			}
		}
		return nil, fmt.Errorf("missing shards %s", strings.Join(missing, ", "))
	}
	m := &Record{
		Version: Version, Test: first.Test, Package: first.Package, Dir: first.Dir, Strategy: first.Strategy, Seed: first.Seed,
		Shards: len(g), Planned: first.Planned, Limit: first.Limit, Exhausted: true,
	}
	orders := map[uint64]int{}
	table := strategy.NewTable()
	for _, r := range g {
		m.Iterations += r.Iterations
		m.Steps += r.Steps
		m.ElapsedNS = max(m.ElapsedNS, r.ElapsedNS)
		m.Failures += r.Failures
		m.Limit = min(m.Limit, r.Limit)
		m.Exhausted = m.Exhausted && r.Exhausted
		m.Interrupted = m.Interrupted || r.Interrupted
		m.Stale = mergeStale(m.Stale, r.Stale) // every shard replays the corpus
		for po, i := range r.OrderMap() {
			if f, ok := orders[po]; !ok || i < f {
				orders[po] = i
			}
		}
		if r.CATable != "" {
			t := strategy.NewTable()
			if err := t.Load(strings.NewReader(r.CATable), core.KeyOfText); err != nil {
				return nil, fmt.Errorf("shard %s: conflict table: %v", r.Shard, err)
			}
			table.Merge(t)
		}
		if f := r.Failure; f != nil && (m.Failure == nil || f.Iteration < m.Failure.Iteration) {
			c := *f
			m.Failure = &c
		}
	}
	for po, i := range orders {
		if i >= m.Limit {
			delete(orders, po) // past the whole run's lowest failure
		}
	}
	m.SetOrders(orders)
	if table.Len() > 0 {
		var b strings.Builder
		if err := table.Save(&b, core.LocText); err != nil {
			return nil, err
		}
		m.CATable = b.String()
	}
	return m, nil
}

func sortOrders(o []Order) {
	slices.SortFunc(o, func(a, b Order) int { return cmp.Compare(a.PO, b.PO) })
}

// mergeStale returns the stale corpus entries of a and b, each once, sorted.
func mergeStale(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
