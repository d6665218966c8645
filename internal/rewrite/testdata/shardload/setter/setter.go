// Package setter writes a variable of base.
package setter

import "example.com/shardload/base"

// Set writes base.Level.
func Set(n int) { base.Level = n }
