// Package app uses another module's packages.
package app

import "example.com/helper/state"

// Total reads the count.
func Total() int { return state.Count }
