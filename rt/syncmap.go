package rt

import (
	"sync"

	"github.com/morpheus-go/morpheus/internal/core"
)

// Map stands for sync.Map. Its methods are sync.Map's, each preceded by a
// scheduling point on the map (as an atomic is: a read point for Load and
// Range, a write point for the others), which also gives the data-race
// detector the edges sync.Map's own synchronisation makes: a Store happens
// before the Load that finds its value.
type Map struct {
	m sync.Map
}

// Load stands for (*sync.Map).Load.
func (m *Map) Load(key any) (value any, ok bool) {
	mapPoint(&m.m, pointMapLoad)
	return m.m.Load(key)
}

// Store stands for (*sync.Map).Store.
func (m *Map) Store(key, value any) {
	mapPoint(&m.m, pointMapStore)
	m.m.Store(key, value)
}

// LoadOrStore stands for (*sync.Map).LoadOrStore.
func (m *Map) LoadOrStore(key, value any) (actual any, loaded bool) {
	mapPoint(&m.m, pointMapLoadOrStore)
	return m.m.LoadOrStore(key, value)
}

// LoadAndDelete stands for (*sync.Map).LoadAndDelete.
func (m *Map) LoadAndDelete(key any) (value any, loaded bool) {
	mapPoint(&m.m, pointMapLoadAndDelete)
	return m.m.LoadAndDelete(key)
}

// Delete stands for (*sync.Map).Delete.
func (m *Map) Delete(key any) {
	mapPoint(&m.m, pointMapDelete)
	m.m.Delete(key)
}

// Swap stands for (*sync.Map).Swap.
func (m *Map) Swap(key, value any) (previous any, loaded bool) {
	mapPoint(&m.m, pointMapSwap)
	return m.m.Swap(key, value)
}

// CompareAndSwap stands for (*sync.Map).CompareAndSwap.
func (m *Map) CompareAndSwap(key, old, new any) (swapped bool) {
	mapPoint(&m.m, pointMapCAS)
	return m.m.CompareAndSwap(key, old, new)
}

// CompareAndDelete stands for (*sync.Map).CompareAndDelete.
func (m *Map) CompareAndDelete(key, old any) (deleted bool) {
	mapPoint(&m.m, pointMapCAD)
	return m.m.CompareAndDelete(key, old)
}

// Range stands for (*sync.Map).Range. sync.Map ranges in an order of its
// own, which depends on its keys' hashes and is the same in every run of
// one binary for integer and string keys.
func (m *Map) Range(f func(key, value any) bool) {
	mapPoint(&m.m, pointMapRange)
	m.m.Range(f)
}

// Clear stands for (*sync.Map).Clear.
func (m *Map) Clear() {
	mapPoint(&m.m, pointMapClear)
	m.m.Clear()
}

// Pool stands for sync.Pool, deterministically: a Pool keeps what is Put
// in it, in a stack that starts empty in every schedule, and Get takes the
// last value Put, or calls New. (sync.Pool's per-processor caches and its
// clearing at garbage collections would make what Get returns depend on
// the machine, not on the schedule.) Get and Put are write points on the
// pool, so a Put happens before the Get that takes its value.
type Pool struct {
	New func() any

	mu    sync.Mutex // for uses outside control, which may be concurrent
	gen   uint64
	items []any
}

// Get stands for (*sync.Pool).Get.
func (p *Pool) Get() any {
	poolPoint(p, pointPoolGet)
	p.mu.Lock()
	p.bind()
	if n := len(p.items); n > 0 {
		v := p.items[n-1]
		p.items[n-1] = nil
		p.items = p.items[:n-1]
		p.mu.Unlock()
		return v
	}
	p.mu.Unlock()
	if p.New != nil {
		return p.New()
	}
	return nil
}

// Put stands for (*sync.Pool).Put.
func (p *Pool) Put(x any) {
	if x == nil {
		return
	}
	poolPoint(p, pointPoolPut)
	p.mu.Lock()
	p.bind()
	p.items = append(p.items, x)
	p.mu.Unlock()
}

// bind empties the pool when a new schedule uses it. Outside control (a
// package's initialisation) it is a plain stack.
func (p *Pool) bind() {
	t := core.CurrentTask()
	if t == nil {
		return
	}
	if g := t.Run().Gen(); g != p.gen {
		p.gen = g
		clear(p.items)
		p.items = p.items[:0]
	}
}
