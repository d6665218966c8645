package rt_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// A range over a map in a file older than go1.23 (a three-clause loop over
// IterMap) visits the keys in RangeMap's order: the seed's, the same in a
// replay, whichever of the loop's forms declares the variables.
func TestIterMapSeeded(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4}
	want := orders(t, seeds)
	for i, seed := range seeds {
		var keys, vals, assigned []string
		_, err := morpheus.Explore(func(*morpheus.Env) {
			keys, vals, assigned = keys[:0], vals[:0], assigned[:0]
			m := map[string]int{}
			for i := range 8 {
				m[strconv.Itoa(i)] = i
			}
			for k, v, it := rt.IterMap(m); it.Next(&k, &v); {
				if strconv.Itoa(v) != k {
					panic("value of another key")
				}
				keys = append(keys, k)
			}
			for v, it := rt.IterMapValues(m); it.Next(nil, &v); {
				vals = append(vals, strconv.Itoa(v))
			}
			var k string
			for it := rt.IterMapOnly(m); it.Next(nil, nil); {
				k = it.Key()
				if strconv.Itoa(it.Value()) != k {
					panic("value of another key")
				}
				assigned = append(assigned, k)
			}
		}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(seed))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keys, want[i]) {
			t.Errorf("seed %d: IterMap visited %v, RangeMap %v", seed, keys, want[i])
		}
		if len(vals) != 8 || len(assigned) != 8 {
			t.Errorf("seed %d: values %v, assigned keys %v", seed, vals, assigned)
		}
	}
}

// An entry deleted before it is reached is skipped; outside control every
// key is visited once.
func TestIterMapDelete(t *testing.T) {
	f := explore(t, 20, func() {
		m := map[int]string{1: "a", 2: "b", 3: "c", 4: "d"}
		seen := 0
		for k, it := rt.IterMapKeys(m); it.Next(&k, nil); {
			seen++
			for j := range m {
				if j != k {
					delete(m, j)
				}
			}
		}
		if seen != 1 {
			panic("visited a deleted entry")
		}
	})
	if f != nil {
		t.Fatal(f.Report())
	}
	n := 0
	for k, it := rt.IterMapKeys(map[string]int{"x": 1, "y": 2}); it.Next(&k, nil); {
		n++
	}
	if n != 2 {
		t.Fatalf("outside control: %d keys", n)
	}
}
