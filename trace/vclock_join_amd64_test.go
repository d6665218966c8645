package trace

import (
	"slices"
	"testing"
)

// TestJoinKernels: both amd64 kernels join as the Go loop does, at every
// length around their vector widths, on entries with the top bit set too
// (which a signed comparison would get wrong).
func TestJoinKernels(t *testing.T) {
	kernels := map[string]func(a, b *uint32, n int){"sse2": joinSSE2}
	if hasAVX2 {
		kernels["avx2"] = joinAVX2
	}
	for name, kernel := range kernels {
		for _, n := range joinTestLengths {
			a, b := joinTestClocks(n)
			wantA, wantB := a.Clone(), b.Clone()
			joinBothGo(wantA, wantB)
			if n > 0 {
				kernel(&a[0], &b[0], n)
			}
			if !slices.Equal(a, wantA) || !slices.Equal(b, wantB) {
				t.Fatalf("%s, %d entries: %v %v, want %v", name, n, a, b, wantA)
			}
		}
	}
}

// TestJoinIntoKernels: both amd64 one-way kernels join as the Go loop
// does, and leave the other clock as it was.
func TestJoinIntoKernels(t *testing.T) {
	kernels := map[string]func(a, b *uint32, n int){"sse2": joinIntoSSE2}
	if hasAVX2 {
		kernels["avx2"] = joinIntoAVX2
	}
	for name, kernel := range kernels {
		for _, n := range joinTestLengths {
			a, b := joinTestClocks(n)
			wantA, wantB := a.Clone(), b.Clone()
			joinIntoGo(wantA, wantB)
			if n > 0 {
				kernel(&a[0], &b[0], n)
			}
			if !slices.Equal(a, wantA) || !slices.Equal(b, wantB) {
				t.Fatalf("%s, %d entries: %v %v, want %v %v", name, n, a, b, wantA, wantB)
			}
		}
	}
}
