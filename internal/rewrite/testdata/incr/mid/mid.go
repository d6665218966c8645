// Package mid writes a global of leaf from a goroutine.
package mid

import "example.com/incr/leaf"

// Bump counts a hit in leaf, in a goroutine.
func Bump() chan struct{} {
	done := make(chan struct{})
	go func() {
		leaf.Hits++
		close(done)
	}()
	return done
}

// Fits reads leaf's Limit through leaf.Under.
func Fits(n int) bool { return leaf.Under(n) }
