// Package maps ranges over maps: those with ordered keys are rewritten to
// an order the seed draws, the others are listed.
package maps

type ServerID string

type Peers map[ServerID]*int

// Sum ranges over maps of every key kind and loop form.
func Sum(p Peers, byIndex map[uint64]float64, m map[float64]string, ptrs map[*int]bool) (n int) {
	for id, v := range p {
		n += len(id) + *v
	}
	for k := range byIndex {
		n += int(k)
	}
	var k float64
	var s string
	for k, s = range m {
		n += int(k) + len(s)
	}
	for range m {
		n++
	}
	for _, v := range nested(p) {
		if v == nil {
			continue
		}
		break
	}
	for p := range ptrs {
		n += *p
	}
	return n
}

func nested(p Peers) map[string]*int {
	out := map[string]*int{}
	for id, v := range p {
		out[string(id)] = v
	}
	return out
}

// Generic ranges over a map of a type parameter's core type.
func Generic[M ~map[K]V, K ~string, V any](m M) (n int) {
	for k := range m {
		n += len(k)
	}
	return n
}
