package mem

// Generic code: elements of type parameters with a core type, and their
// pointees.
func Fill[S ~[]E, E any](s S, v E) {
	for i := range s {
		s[i] = v
	}
}

func Get[M ~map[K]V, K comparable, V any](m M, k K) (V, bool) {
	v, ok := m[k]
	return v, ok
}

func Put[M ~map[K]V, K comparable, V any](m M, k K, v V) { m[k] = v }

func SwapP[P ~*E, E any](a, b P) { *a, *b = *b, *a }

type Box[T any] struct{ v T }

func (b *Box[T]) Set(v T) { b.v = v }
func (b *Box[T]) Get() T  { return b.v }

func Boxes() int {
	b := &Box[int]{}
	b.Set(1)
	f := Get[map[string]int, string, int]
	v, _ := f(nil, "")
	return b.Get() + v
}
