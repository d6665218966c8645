//go:build !amd64

package trace

// joinBoth makes a and b, which are equally long, both their join.
func joinBoth(a, b VC) { joinBothGo(a, b) }
