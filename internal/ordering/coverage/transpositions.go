package coverage

import (
	"fmt"
	"sort"
)

// Pair is an observed unordered pair: A before B in the original trace, and
// some later trace had B before A.
type Pair struct{ A, B uint32 }

func (p Pair) key() uint64 { return uint64(p.A)<<32 | uint64(p.B) }

func pairOf(k uint64) Pair { return Pair{uint32(k >> 32), uint32(k)} }

// Transpositions is the streaming-transpositions state.
type Transpositions struct {
	// Window, when positive, bounds how far back in a trace an inversion is
	// looked for (2k for a k-total system); 0 looks at every earlier event.
	Window int

	original []uint32
	pos      map[uint32]int
	old, new map[uint64]struct{}
}

// NewTranspositions returns an empty state.
func NewTranspositions() *Transpositions {
	return &Transpositions{pos: map[uint32]int{}, old: map[uint64]struct{}{}, new: map[uint64]struct{}{}}
}

// Original is the original order (nil before the first trace).
func (t *Transpositions) Original() []uint32 { return t.original }

// SetOriginal sets the original order; events must be distinct.
func (t *Transpositions) SetOriginal(trace []uint32) error {
	if t.original != nil {
		return fmt.Errorf("original trace already set")
	}
	pos := make(map[uint32]int, len(trace))
	for i, e := range trace {
		if _, dup := pos[e]; dup {
			return fmt.Errorf("event %d twice in the original trace", e)
		}
		pos[e] = i
	}
	t.original = append([]uint32{}, trace...)
	t.pos = pos
	return nil
}

// InOriginal reports whether event e is in the original order.
func (t *Transpositions) InOriginal(e uint32) bool {
	_, ok := t.pos[e]
	return ok
}

// Add observes a non-error trace: the first becomes the original order, every
// later one adds the pairs it transposes. Events absent from the original
// order are not paired. It returns the number of pairs new to the state.
func (t *Transpositions) Add(trace []uint32) int {
	if t.original == nil {
		if t.SetOriginal(trace) != nil {
			// A trace with a repeated event cannot be an order; skip it.
			return 0
		}
		return 0
	}
	p := make([]int, 0, len(trace))
	ev := make([]uint32, 0, len(trace))
	for _, e := range trace {
		if i, ok := t.pos[e]; ok {
			p = append(p, i)
			ev = append(ev, e)
		}
	}
	added := 0
	for j := range p {
		lo := 0
		if t.Window > 0 && j-t.Window > 0 {
			lo = j - t.Window
		}
		for i := lo; i < j; i++ {
			if p[i] > p[j] { // ev[i] was after ev[j] in the original, and is now before
				if t.addPair(Pair{ev[j], ev[i]}) {
					added++
				}
			}
		}
	}
	return added
}

func (t *Transpositions) addPair(p Pair) bool {
	k := p.key()
	if _, ok := t.old[k]; ok {
		return false
	}
	if _, ok := t.new[k]; ok {
		return false
	}
	t.new[k] = struct{}{}
	return true
}

// Observed reports whether events a and b (in either order) were observed
// unordered.
func (t *Transpositions) Observed(a, b uint32) bool {
	if t.pos[a] > t.pos[b] {
		a, b = b, a
	}
	k := Pair{a, b}.key()
	_, o := t.old[k]
	_, n := t.new[k]
	return o || n
}

// Seen reports whether a non-error trace had a before b: the original
// order did, or a later trace transposed the pair. It is false when either
// event is not in the original order.
func (t *Transpositions) Seen(a, b uint32) bool {
	pa, oka := t.pos[a]
	pb, okb := t.pos[b]
	if !oka || !okb || a == b {
		return false
	}
	return pa < pb || t.Observed(a, b)
}

// Len is the number of observed unordered pairs.
func (t *Transpositions) Len() int { return len(t.old) + len(t.new) }

// Pending returns the pairs added since the last Commit, sorted.
func (t *Transpositions) Pending() []Pair { return sorted(t.new) }

// All returns every observed pair, sorted.
func (t *Transpositions) All() []Pair {
	all := sorted(t.old)
	all = append(all, sorted(t.new)...)
	sort.Slice(all, func(i, j int) bool { return all[i].key() < all[j].key() })
	return all
}

// Commit merges the pending pairs into the committed ones (after a save).
func (t *Transpositions) Commit() {
	for k := range t.new {
		t.old[k] = struct{}{}
	}
	t.new = map[uint64]struct{}{}
}

// Merge adds pairs observed elsewhere (a loaded delta, another worker) as
// committed. Pairs whose events are not in the original order are an error.
func (t *Transpositions) Merge(pairs []Pair) error {
	for _, p := range pairs {
		pa, oka := t.pos[p.A]
		pb, okb := t.pos[p.B]
		if !oka || !okb || pa >= pb {
			return fmt.Errorf("pair (%d, %d) is not two events of the original trace in order", p.A, p.B)
		}
		t.old[p.key()] = struct{}{}
		delete(t.new, p.key())
	}
	return nil
}

func sorted(m map[uint64]struct{}) []Pair {
	ks := make([]uint64, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	out := make([]Pair, len(ks))
	for i, k := range ks {
		out[i] = pairOf(k)
	}
	return out
}
