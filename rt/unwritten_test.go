package rt_test

import (
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// byAddress is a cache sorted by the address of its keys, as go-msgpack's
// type cache is by the address of each reflect.Type, filled before the
// schedule and searched by binary search.
type byAddress struct {
	keys []uintptr
}

func newByAddress(objs []*[4]int) *byAddress {
	c := &byAddress{}
	for _, o := range objs {
		c.keys = append(c.keys, uintptr(unsafe.Pointer(o)))
	}
	slices.Sort(c.keys)
	return c
}

// find searches for key as rewritten code does: each element it reads is
// a read of plain memory.
func (c *byAddress) find(key uintptr) bool {
	i, j := 0, len(c.keys)
	for i < j {
		h := i + (j-i)/2
		if *rt.Read(&c.keys[h], "c.keys[h]") < key {
			i = h + 1
		} else {
			j = h
		}
	}
	return i < len(c.keys) && *rt.Read(&c.keys[i], "c.keys[i]") == key
}

// Two goroutines look a key up in a cache sorted by address, filled
// before the schedule. In another process the objects have other
// addresses, so the search takes other halvings: its trace replays there,
// as long as nothing in the schedule writes the cache.
func TestSearchByAddressReplays(t *testing.T) {
	fill := func(n int) (*byAddress, []*[4]int) {
		objs := make([]*[4]int, n)
		for i := range objs {
			objs[i] = new([4]int)
		}
		return newByAddress(objs), objs
	}
	var cache *byAddress
	var key uintptr
	body := func(e *morpheus.Env) {
		var wg csync.WaitGroup
		wg.Add(2)
		for range 2 {
			rt.Go(func() {
				defer wg.Done()
				cache.find(key)
			})
		}
		wg.Wait()
		e.Fatalf("looked up")
	}
	var objs []*[4]int
	cache, objs = fill(64)
	key = uintptr(unsafe.Pointer(objs[0]))
	res, err := morpheus.Explore(body, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Shrink(0), morpheus.Seed(5))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure == nil {
		t.Fatal("the schedule passed")
	}
	path := filepath.Join(t.TempDir(), "trace")
	if err := morpheus.WriteTrace(path, res.Failure.Trace); err != nil {
		t.Fatal(err)
	}
	// The replay's process: the same cache, with its keys at other
	// addresses, and more of them.
	cache, objs = fill(1000)
	key = uintptr(unsafe.Pointer(objs[999]))
	rep, err := morpheus.Explore(body, morpheus.Replay(path))
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Failure; f == nil || f.Kind != res.Failure.Kind {
		t.Fatalf("the replay: %v, want the recorded %s failure", f, res.Failure.Kind)
	}

	// A write of the cache in the schedule makes its reads steps again: a
	// schedule that inserts may not replay where the order differs.
	write := func(e *morpheus.Env) {
		var wg csync.WaitGroup
		wg.Add(2)
		for range 2 {
			rt.Go(func() {
				defer wg.Done()
				cache.find(key)
				*rt.Write(&cache.keys[0], "c.keys[0]") = cache.keys[0]
			})
		}
		wg.Wait()
	}
	w, err := morpheus.Explore(write, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(5))
	if err != nil {
		t.Fatal(err)
	}
	if w.Failure == nil || w.Failure.Kind != "race" {
		t.Fatalf("the unsynchronised writes of the cache: %v, want a race", w.Failure)
	}
}

// A goroutine that spins on a flag no one has written yet still lets the
// one that sets it run: its reads are ops again after a run of them, as on
// memory of its own. The unsynchronised flag is a race, reported when the
// other goroutine writes it, not a schedule at the step limit.
func TestSpinOnUnwrittenFlagEnds(t *testing.T) {
	res, err := morpheus.Explore(func(*morpheus.Env) {
		flag := new(bool)
		var wg csync.WaitGroup
		wg.Add(2)
		rt.Go(func() {
			defer wg.Done()
			for !*rt.Read(flag, "*flag") {
			}
		})
		rt.Go(func() {
			defer wg.Done()
			*rt.Write(flag, "*flag") = true
		})
		wg.Wait()
	}, morpheus.Iterations(20), morpheus.Workers(1), morpheus.Seed(2))
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Failure; f == nil || f.Kind != "race" {
		t.Fatalf("the spin on an unsynchronised flag: %v, want a race", f)
	}
}
