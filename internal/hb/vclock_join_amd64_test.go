package hb

import (
	"slices"
	"testing"
)

// TestJoinKernels: the amd64 kernels, two-way and one-way, join as the Go
// loops do at every length around their vector widths, on entries with the
// top bit set too (which a signed comparison would get wrong); a one-way
// kernel leaves the other clock as it was.
func TestJoinKernels(t *testing.T) {
	type kernel struct {
		name string
		run  func(a, b *uint32, n int)
		want func(a, b VC)
	}
	kernels := []kernel{{"sse2", joinSSE2, joinBothGo}, {"sse2 into", joinIntoSSE2, joinIntoGo}}
	if hasAVX2 {
		kernels = append(kernels, kernel{"avx2", joinAVX2, joinBothGo}, kernel{"avx2 into", joinIntoAVX2, joinIntoGo})
	}
	for _, k := range kernels {
		for _, n := range joinTestLengths {
			a, b := joinTestClocks(n)
			wantA, wantB := a.Clone(), b.Clone()
			k.want(wantA, wantB)
			if n > 0 {
				k.run(&a[0], &b[0], n)
			}
			if !slices.Equal(a, wantA) || !slices.Equal(b, wantB) {
				t.Fatalf("%s, %d entries: %v %v, want %v %v", k.name, n, a, b, wantA, wantB)
			}
		}
	}
}
