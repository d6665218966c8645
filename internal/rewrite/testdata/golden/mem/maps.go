package mem

type Registry struct {
	byName map[string]int
}

// Index: a map is one location: reads and writes of it are ops.
func Index(r *Registry, m map[string]int, k string) int {
	v := m[k]
	w, ok := r.byName[k]
	if !ok {
		r.byName[k] = v
	}
	m[k] += w
	m[k]++
	delete(r.byName, k)
	n := len(m)
	for key := range r.byName {
		n += len(key)
	}
	clear(m)
	return n
}

// Nested: an element of a map of slices.
func Nested(m map[string][]int) { m["a"][0] = m["b"][1] }
