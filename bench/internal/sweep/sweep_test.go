package sweep_test

import (
	"testing"

	"github.com/morpheus-go/morpheus/bench/internal/sweep"
)

// Lookup finds every source by name, in any process: the name is all a
// replay in another process gets.
func TestLookup(t *testing.T) {
	for _, s := range sweep.Sources(3) {
		got, err := sweep.Lookup(s.Name)
		if err != nil || got.Name != s.Name || got.Test == nil || len(got.Options) != len(s.Options) {
			t.Fatalf("Lookup(%q) = %+v, %v", s.Name, got, err)
		}
	}
	for _, bad := range []string{"nosuch", "random-x", "bugs/"} {
		if _, err := sweep.Lookup(bad); err == nil {
			t.Errorf("Lookup(%q) succeeded", bad)
		}
	}
}
