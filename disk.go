package morpheus

import (
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Disk is a node's simulated durable storage: what was synced survives the
// node's crashes, what was written since the last Sync is lost. Writes, syncs
// and reads are ops, so a crash can strike between a write and its sync.
// Values are kept as given: store values that are not modified afterwards.
//
// The disk's ops touch the node's own resource, the one its crash and restart
// touch: a write or sync and a crash of its node conflict, since which comes
// first decides what survives.
type Disk struct {
	node    *Node
	durable map[string]any
	pending map[string]any // written, not yet synced: shadows durable
	deleted map[string]bool
}

// Disk returns the node's disk.
func (n *Node) Disk() *Disk {
	if n.disk == nil {
		n.disk = &Disk{node: n,
			durable: map[string]any{}, pending: map[string]any{}, deleted: map[string]bool{}}
	}
	return n.disk
}

// Write stores value under key, volatile until Sync.
//
//go:noinline
func (d *Disk) Write(key string, value any) {
	d.op(trace.KindDiskWrite, false, goruntime.CallerPC())
	d.pending[key] = value
	delete(d.deleted, key)
}

// Delete removes key, volatile until Sync.
//
//go:noinline
func (d *Disk) Delete(key string) {
	d.op(trace.KindDiskWrite, false, goruntime.CallerPC())
	delete(d.pending, key)
	d.deleted[key] = true
}

// Sync makes every write so far durable.
//
//go:noinline
func (d *Disk) Sync() {
	d.op(trace.KindDiskSync, false, goruntime.CallerPC())
	for k, v := range d.pending {
		d.durable[k] = v
	}
	for k := range d.deleted {
		delete(d.durable, k)
	}
	clear(d.pending)
	clear(d.deleted)
}

// Read returns the value under key: the latest write, synced or not.
//
//go:noinline
func (d *Disk) Read(key string) (any, bool) {
	d.op(trace.KindDiskRead, true, goruntime.CallerPC())
	if v, ok := d.pending[key]; ok {
		return v, true
	}
	if d.deleted[key] {
		return nil, false
	}
	v, ok := d.durable[key]
	return v, ok
}

func (d *Disk) op(kind trace.Kind, read bool, pc uintptr) {
	r := d.node.env.run
	r.Do(r.Current(), core.Op{Kind: kind, Obj: -1, Res: d.node.res, Read: read, PC: pc})
}

// crash loses what was not synced.
func (d *Disk) crash() {
	clear(d.pending)
	clear(d.deleted)
}
