package rt_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// A table only one goroutine reads (a cipher's S-boxes, as bcrypt's) costs
// no steps: a million reads of memory no other goroutine touched, and the
// writes of the blocks they make, are not ops. Before, each was a step,
// and the schedule ran into the step limit.
func TestOwnedReadsAreNoSteps(t *testing.T) {
	res, err := morpheus.Explore(func(*morpheus.Env) {
		var wg csync.WaitGroup
		wg.Add(1)
		rt.Go(func() {
			defer wg.Done()
			box := new([256]uint32)
			for i := range 256 {
				*rt.Write(&box[i], "box[i]") = uint32(i * 7)
			}
			block := make([]uint32, 2)
			var x uint32
			for i := range 1_000_000 {
				x ^= *rt.Read(&box[(uint32(i)^x)&255], "box[...]")
				if i%64 == 63 {
					*rt.Write(&block[i/64%2], "block[...]") = x
				}
			}
		})
		wg.Wait()
	}, morpheus.Iterations(2), morpheus.Workers(1), morpheus.Seed(3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("failed: %s", res.Failure.Report())
	}
	if perRun := res.Steps / int64(res.Iterations); perRun > 1000 {
		t.Errorf("%d steps a schedule for memory one goroutine owns, want a few dozen", perRun)
	}
}

// Memory a goroutine owned and then published without synchronisation: the
// owner's accesses, which were not steps, are still in the race check, at
// the epoch after its last step (after the spawn and the unlock it made).
func TestOwnedThenSharedRaces(t *testing.T) {
	cases := map[string]func(){
		"written after an unlock, read under the lock": func() {
			var mu csync.Mutex
			x := new(int)
			rt.Go(func() {
				mu.Lock()
				//lint:ignore SA2001 the unlock is the release the write comes after
				mu.Unlock()
				*rt.Write(x, "x") = 1 // after the unlock: not ordered by it
			})
			mu.Lock()
			_ = *rt.Read(x, "x")
			mu.Unlock()
		},
		"written before a send, read after the receive, then written": func() {
			ch := rt.Make[chan int](0)
			x := new(int)
			rt.Go(func() {
				*rt.Write(x, "x") = 1
				rt.Send(ch, 0)
				*rt.Write(x, "x") = 2 // after the send: races with main's read
			})
			rt.Recv(ch)
			_ = *rt.Read(x, "x")
		},
	}
	for name, prog := range cases {
		t.Run(name, func(t *testing.T) {
			f := explore(t, 300, prog)
			if f == nil || f.Kind != "race" {
				t.Fatalf("want a race failure, got %v", f)
			}
		})
	}
}

// A goroutine that spins on memory of its own until another goroutine
// writes it takes a step now and then, so the writer runs and the race is
// found (no spin without end between two ops).
func TestOwnedSpinLetsOthersRun(t *testing.T) {
	f := explore(t, 20, func() {
		flag := new(int)
		_ = *rt.Read(flag, "flag") // main owns it from here
		rt.Go(func() { *rt.Write(flag, "flag") = 1 })
		for *rt.Read(flag, "flag") == 0 {
		}
	})
	if f == nil || f.Kind != "race" {
		t.Fatalf("want the race on flag, got %v", f)
	}
}

// A long computation on memory of its own, beside a goroutine that waits
// (so the task does not run alone): a million writes to a map no other
// goroutine touches are no ops, but every so many of them the task comes
// back to the scheduler, so that the watchdog sees it move rather than
// take it for a task blocked outside control (a cache's clean-up of a
// year's buckets), and the step limit bounds such a loop that never ends.
func TestOwnedStretchComesBack(t *testing.T) {
	const writes = 1 << 20
	res, err := morpheus.Explore(func(*morpheus.Env) {
		stop := rt.Make[chan struct{}](0)
		rt.Go(func() { rt.Recv(stop) })
		m := map[int]int{}
		for i := range writes {
			rt.WriteMap(m, "m")[i%64] = i
		}
		rt.Close(stop)
	}, morpheus.Iterations(2), morpheus.Workers(1), morpheus.Seed(3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("failed: %s", res.Failure.Report())
	}
	perRun := res.Steps / int64(res.Iterations)
	if perRun < writes/(1<<12) {
		t.Errorf("%d steps a schedule for %d writes of memory of its own: the task did not come back every 4096 accesses", perRun, writes)
	}
	if perRun > writes/64 {
		t.Errorf("%d steps a schedule for %d writes of memory of its own: want a step only every 4096", perRun, writes)
	}
}
