package rt_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// The rewriter turns plain memory accesses into rt.Read/rt.Write; these
// tests write what it writes, by hand, and what it adds to every file.
var _ = rt.Rewritten()

// raceCases are programs with a data race, each found whatever order the
// schedule gives the two accesses.
var raceCases = map[string]func(){
	"unsynchronised writes": func() {
		x := new(int)
		rt.Go(func() { *rt.Write(x, "x") = 1 })
		*rt.Write(x, "x") = 2
	},
	"read and write": func() {
		x := new(int)
		rt.Go(func() { _ = *rt.Read(x, "x") })
		*rt.Write(x, "x")++
	},
	"after the spawn, not before": func() {
		x := new(int)
		*rt.Write(x, "x") = 1 // before the go statement: ordered
		rt.Go(func() { *rt.Write(x, "x") = 2 })
		*rt.Write(x, "x") = 3 // after it: races with the goroutine's write
	},
	"a lock on one side only": func() {
		var mu csync.Mutex
		x := new(int)
		rt.Go(func() {
			mu.Lock()
			*rt.Write(x, "x") = 1
			mu.Unlock()
		})
		*rt.Write(x, "x") = 2
	},
	"writes under read locks": func() {
		var mu csync.RWMutex
		x := new(int)
		var wg csync.WaitGroup
		for range 2 {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				mu.RLock()
				*rt.Write(x, "x")++
				mu.RUnlock()
			})
		}
		wg.Wait()
	},
	"WaitGroup workers share a counter": func() {
		var wg csync.WaitGroup
		n := new(int)
		for range 2 {
			wg.Add(1)
			rt.Go(func() {
				*rt.Write(n, "n")++
				wg.Done()
			})
		}
		wg.Wait()
	},
	"concurrent map writes": func() {
		m := map[int]int{}
		rt.Go(func() { rt.WriteMap(m, "m")[1] = 1 })
		rt.WriteMap(m, "m")[2] = 2
	},
	"an atomic write and a plain read": func() {
		var n uint64
		rt.Go(func() { rt.Atomic(rt.Point(&n, rt.AtomicAdd, "n"), atomic.AddUint64(&n, 1)) })
		_ = *rt.Read(&n, "n")
	},
	"WaitGroup.Add concurrent with Wait": func() {
		var wg csync.WaitGroup
		start := rt.Make[chan struct{}](0)
		rt.Go(func() {
			rt.Recv(start)
			wg.Add(1) // raises the counter from zero while main may wait
			wg.Done()
		})
		wg.Add(1)
		rt.Go(func() { wg.Done() })
		rt.Close(start)
		wg.Wait()
	},
	"buffered channel: two senders' writes": func() {
		ch := rt.Make[chan int](2)
		x := new(int)
		for i := range 2 {
			rt.Go(func() {
				rt.Send(ch, i)
				*rt.Write(x, "x") = i // after its own send: unordered with the other's
			})
		}
		rt.Recv(ch)
		rt.Recv(ch)
	},
}

// raceFree are programs whose accesses are all ordered by the Go memory
// model: not one schedule may report a race.
var raceFree = map[string]func(){
	"mutex": func() {
		var mu csync.Mutex
		var wg csync.WaitGroup
		x := new(int)
		for range 3 {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				mu.Lock()
				*rt.Write(x, "x")++
				mu.Unlock()
			})
		}
		wg.Wait()
		_ = *rt.Read(x, "x")
	},
	"reads only": func() {
		x := new(int)
		*rt.Write(x, "x") = 1
		rt.Go(func() { _ = *rt.Read(x, "x") })
		_ = *rt.Read(x, "x")
	},
	"unbuffered send then receive": func() {
		ch := rt.Make[chan int](0)
		x := new(int)
		rt.Go(func() {
			*rt.Write(x, "x") = 1
			rt.Send(ch, 0)
		})
		rt.Recv(ch)
		_ = *rt.Read(x, "x")
	},
	"unbuffered: the receive completes before the send": func() {
		ch := rt.Make[chan int](0)
		x := new(int)
		rt.Go(func() {
			*rt.Write(x, "x") = 1
			rt.Recv(ch)
		})
		rt.Send(ch, 0)
		_ = *rt.Read(x, "x")
	},
	"buffered channel as a semaphore": func() {
		sem := rt.Make[chan struct{}](1)
		var wg csync.WaitGroup
		x := new(int)
		for range 3 {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				rt.Send(sem, struct{}{})
				*rt.Write(x, "x")++
				rt.Recv(sem)
			})
		}
		wg.Wait()
	},
	"close then receive": func() {
		done := rt.Make[chan struct{}](0)
		x := new(int)
		rt.Go(func() {
			*rt.Write(x, "x") = 1
			rt.Close(done)
		})
		rt.Recv(done)
		_ = *rt.Read(x, "x")
	},
	"WaitGroup": func() {
		var wg csync.WaitGroup
		a, b := new(int), new(int)
		wg.Add(2)
		rt.Go(func() { *rt.Write(a, "a") = 1; wg.Done() })
		rt.Go(func() { *rt.Write(b, "b") = 1; wg.Done() })
		wg.Wait()
		_ = *rt.Read(a, "a") + *rt.Read(b, "b")
	},
	"Once": func() {
		var once csync.Once
		var wg csync.WaitGroup
		x := new(int)
		for range 2 {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				once.Do(func() { *rt.Write(x, "x") = 1 })
				_ = *rt.Read(x, "x")
			})
		}
		wg.Wait()
	},
	"atomic flag publishes": func() {
		var flag int32
		x := new(int)
		rt.Go(func() {
			*rt.Write(x, "x") = 1
			rt.Atomic(rt.Point(&flag, rt.AtomicAdd, "flag"), atomic.AddInt32(&flag, 1))
		})
		if rt.Atomic(rt.Point(&flag, rt.AtomicLoad, "flag"), atomic.LoadInt32(&flag)) == 1 {
			_ = *rt.Read(x, "x")
		}
	},
	"context cancel then Err": func() {
		ctx, cancel := rt.WithCancel(context.Background())
		x := new(int)
		rt.Go(func() {
			*rt.Write(x, "x") = 1
			cancel()
		})
		for ctx.Err() == nil {
			rt.Gosched()
		}
		_ = *rt.Read(x, "x")
	},
	"context cancel then Done": func() {
		ctx, cancel := rt.WithCancel(context.Background())
		x := new(int)
		rt.Go(func() {
			*rt.Write(x, "x") = 1
			cancel()
		})
		rt.Recv(ctx.Done())
		_ = *rt.Read(x, "x")
	},
	"atomics only": func() {
		var n int64
		var wg csync.WaitGroup
		for range 2 {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				rt.Atomic(rt.Point(&n, rt.AtomicAdd, "n"), atomic.AddInt64(&n, 1))
			})
		}
		_ = rt.Atomic(rt.Point(&n, rt.AtomicLoad, "n"), atomic.LoadInt64(&n))
		wg.Wait()
	},
	"WaitGroup reused after Wait": func() {
		var wg csync.WaitGroup
		for range 2 {
			wg.Add(1)
			rt.Go(func() { wg.Done() })
			wg.Wait()
		}
	},
	"map under a lock": func() {
		var mu csync.Mutex
		m := map[int]int{}
		var wg csync.WaitGroup
		for i := range 2 {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				mu.Lock()
				rt.WriteMap(m, "m")[i] = i
				mu.Unlock()
			})
		}
		wg.Wait()
		_ = len(rt.ReadMap(m, "m"))
	},
}

func TestRacesFound(t *testing.T) {
	for name, prog := range raceCases {
		t.Run(name, func(t *testing.T) {
			f := explore(t, 200, prog)
			if f == nil || f.Kind != "race" {
				t.Fatalf("want a race failure, got %v", f)
			}
			if !strings.Contains(f.Message, "data race on ") || !strings.Contains(f.Message, "race_test.go:") {
				t.Errorf("the report does not name both accesses: %s", f.Message)
			}
			if strings.Contains(f.Message, "location#") {
				t.Errorf("the report names the location by its number, not by the expression of its access: %s", f.Message)
			}
			if !strings.Contains(f.Location, "race_test.go:") {
				t.Errorf("located at %q, want this file", f.Location)
			}
		})
	}
}

func TestNoFalseRaces(t *testing.T) {
	for name, prog := range raceFree {
		t.Run(name, func(t *testing.T) {
			for _, s := range []string{"random", "pos", "pct:3"} {
				res, err := morpheus.Explore(func(*morpheus.Env) { prog() }, morpheus.Iterations(300),
					morpheus.Workers(1), morpheus.Seed(7), morpheus.Strategy(s))
				if err != nil {
					t.Fatal(err)
				}
				if f := res.Failure; f != nil {
					t.Fatalf("%s: %s", s, f.Report())
				}
			}
		})
	}
}

// Whichever access comes first in the schedule, the race is reported at
// the second: over many schedules both orders are seen. (x is memory of
// main's own at its write: that first access after the spawn is a step,
// owned.go, so g1 can write before it.)
func TestRaceEitherOrder(t *testing.T) {
	lines := map[string]bool{}
	for seed := uint64(1); seed <= 40 && len(lines) < 2; seed++ {
		res, err := morpheus.Explore(func(*morpheus.Env) {
			x := new(int)
			rt.Go(func() { *rt.Write(x, "x") = 1 })
			*rt.Write(x, "x") = 2
		}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.Seed(seed), morpheus.Strategy("random"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Failure == nil || res.Failure.Kind != "race" {
			t.Fatalf("seed %d: want a race, got %v", seed, res.Failure)
		}
		lines[res.Failure.Location] = true
	}
	if len(lines) != 2 {
		t.Errorf("the race was reported at %v only; want both accesses' lines over the seeds", lines)
	}
}

// AllowRaces keeps the accesses as ops but reports nothing.
func TestAllowRaces(t *testing.T) {
	res, err := morpheus.Explore(func(*morpheus.Env) { raceCases["unsynchronised writes"]() },
		morpheus.Iterations(50), morpheus.Workers(1), morpheus.AllowRaces(true))
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatal(res.Failure.Report())
	}
}

// A race failure replays from its trace like every failure.
func TestRaceReplays(t *testing.T) {
	prog := raceCases["read and write"]
	res, err := morpheus.Explore(func(*morpheus.Env) { prog() }, morpheus.Iterations(50), morpheus.Workers(1), morpheus.Seed(3))
	if err != nil || res.Failure == nil {
		t.Fatalf("want a race: %v %v", err, res.Failure)
	}
	path := t.TempDir() + "/trace"
	if err := morpheus.WriteTrace(path, res.Failure.Trace); err != nil {
		t.Fatal(err)
	}
	again, err := morpheus.Explore(func(*morpheus.Env) { prog() }, morpheus.Replay(path), morpheus.Workers(1))
	if err != nil {
		t.Fatal(err)
	}
	if f := again.Failure; f == nil || f.Kind != "race" || f.Message != res.Failure.Message {
		t.Fatalf("replay gave %v, want %q", f, res.Failure.Message)
	}
}

// sync.Map and sync.Pool (rt.Map, rt.Pool in rewritten code) order what
// they hand over.
func TestSyncMapPoolNoFalseRaces(t *testing.T) {
	for name, prog := range map[string]func(){
		"Map": func() {
			var m rt.Map
			rt.Go(func() {
				x := new(int)
				*rt.Write(x, "x") = 1
				m.Store("k", x)
			})
			if v, ok := m.Load("k"); ok {
				_ = *rt.Read(v.(*int), "v")
			}
		},
		"Pool": func() {
			p := &rt.Pool{New: func() any { return new(int) }}
			rt.Go(func() {
				x := p.Get().(*int)
				*rt.Write(x, "x") = 1
				p.Put(x)
			})
			x := p.Get().(*int)
			*rt.Write(x, "x") = 2
		},
	} {
		for _, s := range []string{"random", "pos"} {
			res, err := morpheus.Explore(func(*morpheus.Env) { prog() }, morpheus.Iterations(200),
				morpheus.Workers(1), morpheus.Strategy(s))
			if err != nil {
				t.Fatal(err)
			}
			if f := res.Failure; f != nil {
				t.Fatalf("%s, %s: %s", name, s, f.Report())
			}
		}
	}
}
