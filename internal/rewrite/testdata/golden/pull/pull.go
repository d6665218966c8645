// Package pull uses iter.Pull and iter.Pull2 in every shape the rewriter
// redirects to package rt: a call, an explicit instantiation, a function
// value, and a file whose only use of package iter is Pull.
package pull

import "iter"

var pull = iter.Pull[int]

func first(seq func(yield func(int) bool)) (int, bool) {
	next, stop := iter.Pull(seq)
	defer stop()
	return next()
}

func firstOf(seq func(yield func(string, int) bool)) (string, int, bool) {
	next, stop := iter.Pull2[string, int](seq)
	defer stop()
	return next()
}

func viaValue(seq func(yield func(int) bool)) (int, bool) {
	next, stop := pull(seq)
	defer stop()
	return next()
}
