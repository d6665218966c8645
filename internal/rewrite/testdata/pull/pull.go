// Package pull reads sequences with iter.Pull and iter.Pull2, called,
// instantiated and handed around as function values.
package pull

import "iter"

// Zip pairs the values of two sequences until either ends.
func Zip[A, B any](a iter.Seq[A], b iter.Seq[B]) iter.Seq2[A, B] {
	return func(yield func(A, B) bool) {
		na, sa := iter.Pull(a)
		defer sa()
		nb, sb := iter.Pull[B](b)
		defer sb()
		for {
			va, ok := na()
			if !ok {
				return
			}
			vb, ok := nb()
			if !ok || !yield(va, vb) {
				return
			}
		}
	}
}

// pull2 is iter.Pull2 instantiated and held as a value.
var pull2 = iter.Pull2[string, int]

// First returns the first pair of seq.
func First(seq iter.Seq2[string, int]) (string, int, bool) {
	next, stop := pull2(seq)
	defer stop()
	return next()
}
