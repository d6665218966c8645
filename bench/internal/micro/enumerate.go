package micro

import "fmt"

// analyzeByEnumeration computes the Space of p by enumerating every schedule
// depth first and mapping each to its canonical form: the definition, kept as
// the reference Analyze is tested against. It visits every total order (63
// million for 4 threads × 4 events), which takes seconds per program.
func analyzeByEnumeration(p *Program) (*Space, error) {
	f, err := newForm(p)
	if err != nil {
		return nil, err
	}
	a := &enumerator{
		p:   p,
		s:   &Space{Program: p, index: make(map[uint64]int32), form: f},
		pos: make([]int, p.Threads),
	}
	a.enabled = make([][]int, len(p.Events)+1)
	a.dfs(0, 0, 0, 1, -1, 0, 0)
	if a.err != nil {
		return nil, a.err
	}
	for _, d := range a.s.Depth {
		a.s.MaxDepth = max(a.s.MaxDepth, d)
	}
	return a.s, nil
}

type enumerator struct {
	p       *Program
	s       *Space
	pos     []int   // next event of each thread
	enabled [][]int // scratch per level: the enabled threads
	err     error
}

func (a *enumerator) dfs(level int, mask, decided uint64, prob float64, last, pre, confl int) {
	en := a.enabled[level][:0]
	lastEnabled := false
	for t := range a.p.Threads {
		if next(a.p, a.pos, t) >= 0 {
			en = append(en, t)
			lastEnabled = lastEnabled || t == last
		}
	}
	a.enabled[level] = en
	if len(en) == 0 {
		if level < len(a.p.Events) && a.err == nil {
			a.err = fmt.Errorf("micro: program %s can deadlock", a.p.Name)
		}
		a.leaf(mask, prob, pre, confl)
		return
	}
	q := prob / float64(len(en))
	for _, t := range en {
		e := a.p.Index(t, a.pos[t])
		pr := pre
		if lastEnabled && t != last {
			pr++
		}
		m, d := a.s.form.step(mask, decided, e)
		c := directConflicts(a.p, a.pos, en, t)
		a.pos[t]++
		a.dfs(level+1, m, d, q, t, pr, confl+c)
		a.pos[t]--
	}
}

func (a *enumerator) leaf(mask uint64, prob float64, pre, confl int) {
	s := a.s
	s.Schedules++
	s.MaxConflicts = max(s.MaxConflicts, confl)
	id, ok := s.index[mask]
	if !ok {
		id = int32(len(s.Masks))
		s.index[mask] = id
		s.Masks = append(s.Masks, mask)
		s.RW = append(s.RW, 0)
		s.Depth = append(s.Depth, pre)
	}
	s.RW[id] += prob
	s.Depth[id] = min(s.Depth[id], pre)
}

// next returns the index of thread t's next event if it is enabled, or -1.
func next(p *Program, pos []int, t int) int {
	if pos[t] == p.Len(t) {
		return -1
	}
	e := p.Index(t, pos[t])
	if w := p.Events[e].After; w >= 0 {
		wt := p.Events[w].Thread
		if p.Index(wt, pos[wt]) <= w && pos[wt] < p.Len(wt) {
			return -1
		}
	}
	return e
}

// directConflicts returns the number of direct conflicts when thread t runs
// its next event with the threads en enabled: the other enabled threads whose
// next event depends on it.
func directConflicts(p *Program, pos []int, en []int, t int) int {
	e := p.Index(t, pos[t])
	c := 0
	for _, u := range en {
		if u != t && p.Depends(e, p.Index(u, pos[u])) {
			c++
		}
	}
	return c
}
