package rt_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// orders runs one schedule per seed and returns the order in which
// RangeMap visited a map's keys in each.
func orders(t *testing.T, seeds []uint64) [][]string {
	t.Helper()
	var out [][]string
	for _, seed := range seeds {
		var got []string
		_, err := morpheus.Explore(func(*morpheus.Env) {
			got = got[:0]
			m := map[string]int{}
			for i := range 8 {
				m[strconv.Itoa(i)] = i
			}
			for k, v := range rt.RangeMap(m) {
				if strconv.Itoa(v) != k {
					panic("value of another key")
				}
				got = append(got, k)
			}
		}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(seed))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, slices.Clone(got))
	}
	return out
}

// A range over a map under control visits its keys in an order the
// schedule's seed draws: the same seed, the same order (Go's own order
// changes on every loop), other seeds other orders.
func TestRangeMapSeeded(t *testing.T) {
	a, b := orders(t, []uint64{1, 2, 3, 4}), orders(t, []uint64{1, 2, 3, 4})
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Fatalf("same seeds, other orders:\n%v\n%v", a, b)
	}
	distinct := map[string]bool{}
	for _, o := range a {
		if len(o) != 8 {
			t.Fatalf("visited %v", o)
		}
		distinct[strings.Join(o, ",")] = true
	}
	if len(distinct) < 2 {
		t.Fatalf("4 seeds, one order: %v", a)
	}
}

// Entries deleted during the loop before they are reached are not
// visited, as in Go; break stops the loop; outside control it is Go's
// range.
func TestRangeMapDelete(t *testing.T) {
	f := explore(t, 20, func() {
		m := map[int]string{1: "a", 2: "b", 3: "c", 4: "d"}
		seen := 0
		for k := range rt.RangeMap(m) {
			seen++
			for j := range m {
				if j != k {
					delete(m, j) // the others: none of them is visited
				}
			}
		}
		if seen != 1 {
			panic("visited a deleted entry")
		}
		n := 0
		for range rt.RangeMap(map[float64]bool{1: true, 2: true, 3: true}) {
			n++
			break
		}
		if n != 1 {
			panic("break did not stop the loop")
		}
	})
	if f != nil {
		t.Fatal(f.Report())
	}
	n := 0
	for range rt.RangeMap(map[string]int{"x": 1, "y": 2}) {
		n++
	}
	if n != 2 {
		t.Fatalf("outside control: %d keys", n)
	}
}

// crypto/rand's Read, rewritten to CryptoRead, gives the same bytes for the
// same seed under control (UUIDs made from them then order the same way in
// a replay), and real random bytes outside.
func TestCryptoReadSeeded(t *testing.T) {
	draw := func(seed uint64) (out []byte) {
		_, err := morpheus.Explore(func(*morpheus.Env) {
			b := make([]byte, 16)
			if n, err := rt.CryptoRead(b); n != 16 || err != nil {
				panic("short read")
			}
			out = append(b, rt.CryptoText()...)
		}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(seed))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if a, b, c := draw(1), draw(1), draw(2); !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Fatalf("seed 1: %x, %x; seed 2: %x", a, b, c)
	}
	a, b := make([]byte, 16), make([]byte, 16)
	rt.CryptoRead(a)
	rt.CryptoRead(b)
	if slices.Equal(a, b) || len(rt.CryptoText()) != 26 {
		t.Fatalf("outside control: %x %x", a, b)
	}
}
