package untyped

import (
	"slices"
	"testing"
)

func TestCaps(t *testing.T) {
	want := []int{1000, 97, 4, 2, 8, 5, 2, 0}
	if got := Caps(3); !slices.Equal(got, want) {
		t.Fatalf("capacities %v, want %v", got, want)
	}
}
