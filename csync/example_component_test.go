package csync_test

import (
	"fmt"
	"sync"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// This file is the worked example of the package documentation: an ordinary
// goroutine-based component, a read-through cache, written against a small
// Runtime interface so that production runs it on sync and time and tests
// run it under morpheus on csync.

// Runtime is what the cache needs of the world.
type Runtime interface {
	Go(f func())
	NewMutex() sync.Locker
}

// RealRuntime runs on goroutines and sync.
type RealRuntime struct{}

func (RealRuntime) Go(f func())           { go f() }
func (RealRuntime) NewMutex() sync.Locker { return new(sync.Mutex) }

// MorpheusRuntime runs on csync, under morpheus's control.
type MorpheusRuntime struct{}

func (MorpheusRuntime) Go(f func())           { csync.Go(f) }
func (MorpheusRuntime) NewMutex() sync.Locker { return new(csync.Mutex) }

// Store is the backing store (a database). Its slowness needs no modelling:
// the window the bug needs is between the cache's two critical sections,
// which are separate ops. (A Sleep would not widen it: the virtual clock
// moves only when no task can run, so everything else runs first.)
type Store struct {
	mu   sync.Locker
	data map[string]string
}

func NewStore(rt Runtime) *Store { return &Store{mu: rt.NewMutex(), data: map[string]string{}} }

func (s *Store) Get(k string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[k]
}

func (s *Store) Put(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[k] = v
}

// Cache is a write-through, read-through cache in front of a Store. It does
// not hold its lock while it reads the store, so that a slow read does not
// stall every other key.
type Cache struct {
	mu    sync.Locker
	store *Store
	data  map[string]string
	fixed bool // fill only what nobody wrote meanwhile
}

func NewCache(rt Runtime, s *Store, fixed bool) *Cache {
	return &Cache{mu: rt.NewMutex(), store: s, data: map[string]string{}, fixed: fixed}
}

// Get returns k's value, from the cache or else from the store.
func (c *Cache) Get(k string) string {
	c.mu.Lock()
	v, ok := c.data[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = c.store.Get(k)
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.data[k]; ok && c.fixed {
		return cur // a Set came in while we read: it is newer than what we read
	}
	c.data[k] = v // the bug: may overwrite a newer value with the stale one we read
	return v
}

// Set writes k through to the store and the cache.
func (c *Cache) Set(k, v string) {
	c.store.Put(k, v)
	c.mu.Lock()
	c.data[k] = v
	c.mu.Unlock()
}

// cacheTest is the morpheus test: a reader and a writer race on one key; once
// both are done the cache must agree with the store.
func cacheTest(fixed bool) func(e *morpheus.Env) {
	return func(e *morpheus.Env) {
		rt := MorpheusRuntime{}
		s := NewStore(rt)
		s.Put("k", "old")
		c := NewCache(rt, s, fixed)
		var wg csync.WaitGroup
		wg.Go(func() { c.Get("k") })
		wg.Go(func() { c.Set("k", "new") })
		wg.Wait()
		got, want := c.Get("k"), s.Get("k")
		e.Assert(got == want, "cache serves %q, the store has %q", got, want)
	}
}

// Morpheus finds the stale fill of the buggy cache within a few iterations,
// and the fixed cache passes every schedule it tries.
func Example_component() {
	res, _ := morpheus.Explore(cacheTest(false), morpheus.Strategy("pos*"), morpheus.Seed(1))
	fmt.Println("buggy:", res.Failure.Kind, "-", res.Failure.Message)
	res, _ = morpheus.Explore(cacheTest(true), morpheus.Strategy("pos*"), morpheus.Iterations(2000), morpheus.Seed(1))
	fmt.Println("fixed:", res.Failure == nil, "after", res.Iterations, "iterations")
	// And the same component runs for real:
	rt := RealRuntime{}
	c := NewCache(rt, NewStore(rt), true)
	c.Set("k", "v")
	fmt.Println("real:", c.Get("k"))
	// Output:
	// buggy: assertion - cache serves "old", the store has "new"
	// fixed: true after 2000 iterations
	// real: v
}
