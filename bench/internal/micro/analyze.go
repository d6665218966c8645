package micro

import "fmt"

// Analyze computes the Space of p exactly. Rather than visiting each of the
// schedules (63 million for 4 threads × 4 events), it goes level by level
// through the prefixes of schedules, merging prefixes that are the same
// partial order: two prefixes that ran the same events (the same position in
// every thread) and ordered every decided dependent pair the same way (the
// same partial mask) have the same futures. Per merged prefix it keeps the
// number of schedules, random walk's probability, and the fewest preemptions
// per last thread; the final level holds one entry per partial order, in a
// deterministic order. A few hundred thousand prefixes per level replace the
// millions of schedules, and the results equal those of the enumeration.
func Analyze(p *Program) (*Space, error) {
	f, err := newForm(p)
	if err != nil {
		return nil, err
	}
	for t := range p.Threads {
		if p.Len(t) > 15 {
			return nil, fmt.Errorf("micro: thread %d has %d events, at most 15", t, p.Len(t))
		}
	}
	s := &Space{Program: p, index: make(map[uint64]int32), form: f}
	a := &dp{p: p, f: f, pos: make([]int, p.Threads)}
	s.MaxConflicts = a.maxConflicts()
	cur := []prefix{{count: 1, prob: 1}}
	for i := range cur[0].pre {
		cur[0].pre[i] = noPre
	}
	cur[0].pre[p.Threads] = 0 // no last thread yet
	for level := 0; level < len(p.Events); level++ {
		cur = a.advance(cur)
		if len(cur) == 0 {
			return nil, fmt.Errorf("micro: program %s can deadlock", p.Name)
		}
	}
	for i := range cur {
		st := &cur[i]
		depth := int(noPre)
		for _, d := range st.pre {
			depth = min(depth, int(d))
		}
		s.index[st.mask] = int32(len(s.Masks))
		s.Masks = append(s.Masks, st.mask)
		s.RW = append(s.RW, st.prob)
		s.Depth = append(s.Depth, depth)
		s.MaxDepth = max(s.MaxDepth, depth)
		s.Schedules += st.count
	}
	return s, nil
}

// noPre marks an unreachable (prefix, last thread) combination.
const noPre = int8(127)

// prefix is a class of schedule prefixes that are the same partial order.
type prefix struct {
	pos           uint64 // 4 bits per thread: events run
	mask, decided uint64
	count         int64
	prob          float64
	// pre[t] is the fewest preemptions of a prefix whose last step was
	// thread t's; pre[maxThreads] is for the empty prefix.
	pre [maxThreads + 1]int8
}

type dp struct {
	p   *Program
	f   *form
	pos []int
	en  []int
}

type prefixKey struct{ pos, mask uint64 }

// advance returns the prefixes one event longer than those of cur.
func (a *dp) advance(cur []prefix) []prefix {
	var out []prefix
	index := make(map[prefixKey]int, len(cur))
	for i := range cur {
		st := &cur[i]
		a.unpack(st.pos)
		a.en = a.en[:0]
		for t := range a.p.Threads {
			if next(a.p, a.pos, t) >= 0 {
				a.en = append(a.en, t)
			}
		}
		q := st.prob / float64(len(a.en))
		for _, t := range a.en {
			e := a.p.Index(t, a.pos[t])
			m, d := a.f.step(st.mask, st.decided, e)
			k := prefixKey{st.pos + 1<<(4*t), m}
			j, ok := index[k]
			if !ok {
				j = len(out)
				index[k] = j
				out = append(out, prefix{pos: k.pos, mask: m, decided: d})
				for x := range out[j].pre {
					out[j].pre[x] = noPre
				}
			}
			nx := &out[j]
			nx.count += st.count
			nx.prob += q
			// Fewest preemptions ending with t: from each possible last
			// thread u, a step of t preempts u if u is still enabled.
			for u, pu := range st.pre {
				if pu == noPre {
					continue
				}
				if u != t && u < a.p.Threads && a.enabledNow(u) {
					pu++
				}
				nx.pre[t] = min(nx.pre[t], pu)
			}
		}
	}
	return out
}

func (a *dp) enabledNow(t int) bool {
	for _, u := range a.en {
		if u == t {
			return true
		}
	}
	return false
}

func (a *dp) unpack(pos uint64) {
	for t := range a.pos {
		a.pos[t] = int(pos >> (4 * t) & 15)
	}
}

// maxConflicts returns the largest number of direct conflicts of a schedule.
// The conflicts of a step depend only on the positions of the threads, so
// this is a longest path over positions, memoized.
func (a *dp) maxConflicts() int {
	memo := map[uint64]int{}
	var walk func(pos uint64) int
	walk = func(pos uint64) int {
		if v, ok := memo[pos]; ok {
			return v
		}
		a.unpack(pos)
		var en []int
		for t := range a.p.Threads {
			if next(a.p, a.pos, t) >= 0 {
				en = append(en, t)
			}
		}
		best := 0
		for _, t := range en {
			a.unpack(pos)
			c := directConflicts(a.p, a.pos, en, t)
			best = max(best, c+walk(pos+1<<(4*t)))
		}
		memo[pos] = best
		return best
	}
	return walk(0)
}
