package morpheus

import (
	"fmt"
	"testing"

	"github.com/morpheus-go/morpheus/internal/core"
)

// The cache gives the names and identities a fresh build gives, and stops
// growing at its bound without giving wrong names past it.
func TestTaskNamesCache(t *testing.T) {
	c := taskNames{}
	cases := []struct {
		node, name string
		k          int
		full       string
		unique     string
	}{
		{"n1", "client", 0, "client@n1", "client"},
		{"n1", "client", 1, "client#2@n1", "client#2"},
		{"", "client", 2, "client#3", "client#3"},
		{"n2", "server", 0, "server@n2", "server"},
	}
	for round := range 2 { // built, then from the cache
		for _, tc := range cases {
			full, key := c.of(tc.node, tc.name, tc.k)
			if full != tc.full || key != core.NameKey(tc.node, tc.unique) {
				t.Fatalf("round %d: of(%q, %q, %d) = %q, %x; want %q, %x", round, tc.node, tc.name, tc.k,
					full, key, tc.full, core.NameKey(tc.node, tc.unique))
			}
		}
	}
	for i := len(c); i < maxTaskNames+10; i++ {
		name := fmt.Sprint("p", i)
		if full, _ := c.of("n", name, 0); full != name+"@n" {
			t.Fatalf("name %d: %q", i, full)
		}
	}
	if len(c) != maxTaskNames {
		t.Fatalf("the cache holds %d names, want its bound %d", len(c), maxTaskNames)
	}
}

// A worker's second iteration names its processes as its first did.
func TestTaskNamesAcrossIterations(t *testing.T) {
	var got []string
	res, err := Explore(func(e *Env) {
		n := e.NewNode("n1", nil)
		var names []string
		for range 3 {
			p := n.Spawn("w", func(*Env) {})
			names = append(names, p.p.task.Name)
		}
		got = append(got, fmt.Sprint(names))
	}, Iterations(3), Workers(1), Strategy("random"))
	if err != nil || res.Failure != nil {
		t.Fatal(err, res.Failure)
	}
	want := "[w@n1 w#2@n1 w#3@n1]"
	for i, g := range got {
		if g != want {
			t.Fatalf("iteration %d: %s, want %s", i, g, want)
		}
	}
}
