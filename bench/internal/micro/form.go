package micro

import "fmt"

// form computes canonical forms (see the package documentation) of a
// program's schedules incrementally, one event at a time.
type form struct {
	pairs [][2]int // the dependent pairs of different threads, a < b
	up    []uint64 // per event e: the pairs (e, f) with f > e
	all   []uint64 // per event e: the pairs that contain e
}

func newForm(p *Program) (*form, error) {
	f := &form{up: make([]uint64, len(p.Events)), all: make([]uint64, len(p.Events))}
	for a := range p.Events {
		for b := a + 1; b < len(p.Events); b++ {
			if !p.Depends(a, b) {
				continue
			}
			k := len(f.pairs)
			if k == 64 {
				return nil, fmt.Errorf("micro: program %s has more than 64 dependent pairs", p.Name)
			}
			f.pairs = append(f.pairs, [2]int{a, b})
			f.up[a] |= 1 << k
			f.all[a] |= 1 << k
			f.all[b] |= 1 << k
		}
	}
	return f, nil
}

// step returns the mask and the set of decided pairs after event e runs.
func (f *form) step(mask, decided uint64, e int) (uint64, uint64) {
	return mask | f.up[e]&^decided, decided | f.all[e]
}
