// Package lone imports none of the others.
package lone

// Count counts.
var Count int

// Inc counts one.
func Inc() { Count++ }
