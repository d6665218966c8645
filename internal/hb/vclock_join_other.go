//go:build !amd64

package hb

// joinBoth makes a and b, which are equally long, both their join.
func joinBoth(a, b VC) { joinBothGo(a, b) }

// joinInto makes a, which is no longer than b, its join with b.
func joinInto(a, b VC) { joinIntoGo(a, b) }
