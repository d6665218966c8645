package rt

import (
	"cmp"
	"slices"
)

// MapIter stands for a range over a map with ordered keys in a file whose
// Go version predates range-over-func (go1.23), where RangeMap cannot be
// ranged over. The rewriter turns for k, v := range m { into
//
//	for k, v, __it := __rt.IterMap(m); __it.Next(&k, &v); {
//
// on the same line: the loop's variables are declared once by the for
// statement's init, as the range's are before go1.22 (one pair for the
// whole loop, which a goroutine started in the body may share), and Next
// assigns them the next entry. The keys are visited in RangeMap's order:
// the keys present when the loop starts, sorted, then shuffled by the
// schedule's generator of map orders (the same seed, and a replay, give the
// same order); an entry deleted before it is reached is skipped, the value
// is the entry's when it is reached. Outside control, Go's order.
type MapIter[K cmp.Ordered, V any] struct {
	m    map[K]V
	keys []K
	k    K
	v    V
}

func iterMap[K cmp.Ordered, V any](m map[K]V) *MapIter[K, V] {
	it := &MapIter[K, V]{m: m, keys: make([]K, 0, len(m))}
	for k := range m {
		it.keys = append(it.keys, k)
	}
	if g := mapOrder(); g != nil {
		slices.Sort(it.keys)
		g.Shuffle(len(it.keys), func(i, j int) { it.keys[i], it.keys[j] = it.keys[j], it.keys[i] })
	}
	return it
}

// IterMap starts a loop for k, v := range m: the loop's two variables, at
// their zero values, and the iterator.
func IterMap[M ~map[K]V, K cmp.Ordered, V any](m M) (K, V, *MapIter[K, V]) {
	var k K
	var v V
	return k, v, iterMap(map[K]V(m))
}

// IterMapKeys starts a loop for k := range m.
func IterMapKeys[M ~map[K]V, K cmp.Ordered, V any](m M) (K, *MapIter[K, V]) {
	var k K
	return k, iterMap(map[K]V(m))
}

// IterMapValues starts a loop for _, v := range m.
func IterMapValues[M ~map[K]V, K cmp.Ordered, V any](m M) (V, *MapIter[K, V]) {
	var v V
	return v, iterMap(map[K]V(m))
}

// IterMapOnly starts a loop that declares no variables: for range m, and
// for k, v = range m, whose body then assigns Key and Value.
func IterMapOnly[M ~map[K]V, K cmp.Ordered, V any](m M) *MapIter[K, V] {
	return iterMap(map[K]V(m))
}

// Next moves to the next entry still in the map and stores its key in *k
// and its value in *v (each when not nil); false when there is none.
func (it *MapIter[K, V]) Next(k *K, v *V) bool {
	for len(it.keys) > 0 {
		key := it.keys[0]
		it.keys = it.keys[1:]
		val, ok := it.m[key]
		if !ok {
			continue
		}
		it.k, it.v = key, val
		if k != nil {
			*k = key
		}
		if v != nil {
			*v = val
		}
		return true
	}
	return false
}

// Key is the key of the entry Next moved to.
func (it *MapIter[K, V]) Key() K { return it.k }

// Value is the value of the entry Next moved to.
func (it *MapIter[K, V]) Value() V { return it.v }
