// Package top stands apart: an edit of leaf does not change its files.
package top

import "sync"

// Once runs f once.
func Once(f func()) {
	var o sync.Once
	o.Do(f)
}
