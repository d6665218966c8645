package rt_test

import (
	"runtime"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// A goroutine that reads a table of its own a million times while another
// waits for it (bcrypt's S-boxes while the test's other goroutines block):
// no access is an op (the owned rule), and none but the first to each
// address looks its location up in the schedule's table; the rest come from
// the cache. Before, each read cost a look-up, most of a bcrypt hash's time.
func TestOwnedTableReadsHitTheCache(t *testing.T) {
	lookups := -1
	res, err := morpheus.Explore(func(*morpheus.Env) {
		var wg csync.WaitGroup
		wg.Add(1)
		rt.Go(func() {
			defer wg.Done()
			box := new([1024]uint32)
			for i := range len(box) {
				*rt.Write(&box[i], "box[i]") = uint32(i * 7)
			}
			block := make([]uint32, 2)
			var x uint32
			for i := range 1_000_000 {
				x ^= *rt.Read(&box[(uint32(i)^x)%1024], "box[...]")
				if i%64 == 63 { // a cipher's block: a write now and then, not a spin
					*rt.Write(&block[i/64%2], "block[...]") = x
				}
			}
			lookups = rt.MemLookups()
		})
		wg.Wait()
	}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("failed: %s", res.Failure.Report())
	}
	if lookups < 0 || lookups > 2*1024 {
		t.Errorf("%d look-ups in the table for about a million accesses to 1,026 addresses, want about one per address", lookups)
	}
}

// A cached location does not outlive its object: once the object is
// collected, its address's entry no longer answers (a new object there
// gets a location of its own, with none of the old one's accesses), and
// the cache does not keep the object alive.
func TestCachedLocationDiesWithItsObject(t *testing.T) {
	type obj struct{ words [8]int64 }
	res, err := morpheus.Explore(func(*morpheus.Env) {
		var wg csync.WaitGroup
		wg.Add(1)
		rt.Go(func() { // main waits: the goroutine does not run alone
			defer wg.Done()
			o := &obj{}
			*rt.Write(&o.words[7], "o.words[7]") = 1
			k := uintptr(unsafe.Pointer(&o.words[7])) // not the object's start
			if !rt.CachedLocationAlive(k) {
				panic("the location of a live object's field is not in the cache")
			}
			w := weak.Make(o)
			runtime.KeepAlive(o)
			o = nil
			for range 3 {
				runtime.GC()
			}
			if w.Value() != nil {
				panic("the object of a cached location is still alive: the cache keeps it")
			}
			if rt.CachedLocationAlive(k) {
				panic("the cached location of a collected object still answers")
			}
		})
		wg.Wait()
	}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("failed: %s", res.Failure.Report())
	}
}

// A computation takes time: a goroutine that hashes (a million reads of a
// table of its own, no ops but one every 50,000 accesses) while another
// goroutine sleeps sees the clock move, as go test would, so a timer set
// before can fire during it. Before, accesses without an op took no time:
// the clock stood until the computation ended.
func TestOwnedComputationTakesTime(t *testing.T) {
	var elapsed time.Duration
	res, err := morpheus.Explore(func(*morpheus.Env) {
		t0 := rt.Now()
		var wg csync.WaitGroup
		wg.Add(1)
		rt.Go(func() {
			defer wg.Done()
			box := new([256]uint32)
			block := make([]uint32, 2)
			var x uint32
			for i := range 1_000_000 {
				x ^= *rt.Read(&box[(uint32(i)^x)&255], "box[...]")
				if i%64 == 63 {
					*rt.Write(&block[i/64%2], "block[...]") = x
				}
				if i%50_000 == 49_999 {
					rt.Gosched()
				}
			}
			elapsed = rt.Since(t0)
		})
		rt.Sleep(time.Second) // a deadline pending: the clock drifts towards it
		wg.Wait()
	}, morpheus.Iterations(2), morpheus.Workers(1), morpheus.Seed(5))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("failed: %s", res.Failure.Report())
	}
	if elapsed < 5*time.Millisecond {
		t.Errorf("a computation of a million accesses took %v of virtual time, want milliseconds", elapsed)
	}
}
