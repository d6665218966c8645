package core

import (
	"sort"

	"github.com/morpheus-go/morpheus/internal/opkind"
	"github.com/morpheus-go/morpheus/strategy"
)

// The enabled set of a step with many tasks. collect presents the enabled
// ops to the strategy in task order at every step; rebuilding that slice
// from the pending set costs a step as much as there are enabled tasks (a
// worker pool's 5,000 goroutines spinning on a lock: 5,000 offers a step,
// nearly all of its time). Between two steps the set changes by a few
// tasks (the one picked, which posts its next op; the one it woke), so
// with more than 64 tasks the machine keeps the last step's set, in task
// order, and applies only the tasks whose membership changed since
// (enable, disable): the slice the strategy sees is the one a rebuild
// would give, entry for entry, so traces do not change. An op's fields do
// not change while it is enabled (post sets them before it enables the
// task), which is what makes a kept entry still right.

// maxDirty is how many changes the cache applies one by one; more (the
// clock moved and enabled many timers) and it is rebuilt.
const maxDirty = 32

// enabledCache is the machine's kept enabled set.
type enabledCache struct {
	ops   []strategy.Op
	tasks []*Task
	ok    bool    // ops is the set, but for the ids in dirty
	dirty []int32 // ids enabled or disabled since
	local int     // local ops (opkind.Local) in ops
}

// enable adds id to the enabled (pending) set.
func (m *machine) enable(id int32) {
	m.pending.add(id)
	if m.cache.ok {
		m.cache.note(id)
	}
}

// disable removes id from the enabled (pending) set.
func (m *machine) disable(id int32) {
	m.pending.remove(id)
	if m.cache.ok {
		m.cache.note(id)
	}
}

func (c *enabledCache) note(id int32) {
	if len(c.dirty) == maxDirty {
		c.ok = false // too many: rebuilt at the next collect
		return
	}
	c.dirty = append(c.dirty, id)
}

// reset forgets the set (a new iteration), keeping the memory.
func (c *enabledCache) reset() {
	clear(c.tasks)
	c.ops, c.tasks, c.dirty = c.ops[:0], c.tasks[:0], c.dirty[:0]
	c.ok, c.local = false, 0
}

// cached brings the cache up to date and makes it the enabled set, as walk
// would build it; with localFirst it returns instead the task of the first
// local op, with the ops before it as the enabled set, as walk does.
func (m *machine) cached(localFirst bool) *Task {
	c := &m.cache
	if !c.ok {
		c.ops, c.tasks, c.local = c.ops[:0], c.tasks[:0], 0
		for id := range m.pending.all() {
			t := m.tasks[id]
			c.ops = append(c.ops, m.entry(t))
			c.tasks = append(c.tasks, t)
			if opkind.Local(t.op.Kind, t.op.Res) {
				c.local++
			}
		}
		c.ok = true
	} else {
		for _, id := range c.dirty {
			m.fix(id)
		}
	}
	c.dirty = c.dirty[:0]
	n := len(c.ops)
	if localFirst && c.local > 0 {
		for i := range c.ops {
			if op := &c.ops[i]; opkind.Local(op.Kind, op.Res) {
				m.enabled, m.enabledT = c.ops[:i:i], c.tasks[:i:i]
				return c.tasks[i]
			}
		}
	}
	// Capacity n: an append to the enabled set (offerEarly) copies it.
	m.enabled, m.enabledT = c.ops[:n:n], c.tasks[:n:n]
	return nil
}

// fix brings task id's entry in line with the pending set.
func (m *machine) fix(id int32) {
	c := &m.cache
	i := sort.Search(len(c.tasks), func(i int) bool { return c.tasks[i].ID >= id })
	present := i < len(c.tasks) && c.tasks[i].ID == id
	in := m.pending.words[id>>6]&(1<<(uint(id)&63)) != 0
	switch {
	case in && present:
		if opkind.Local(c.ops[i].Kind, c.ops[i].Res) {
			c.local--
		}
		c.ops[i] = m.entry(c.tasks[i])
	case in:
		t := m.tasks[id]
		c.ops = append(c.ops, strategy.Op{})
		copy(c.ops[i+1:], c.ops[i:])
		c.ops[i] = m.entry(t)
		c.tasks = append(c.tasks, nil)
		copy(c.tasks[i+1:], c.tasks[i:])
		c.tasks[i] = t
	case present:
		if opkind.Local(c.ops[i].Kind, c.ops[i].Res) {
			c.local--
		}
		c.ops = append(c.ops[:i], c.ops[i+1:]...)
		copy(c.tasks[i:], c.tasks[i+1:])
		c.tasks[len(c.tasks)-1] = nil
		c.tasks = c.tasks[:len(c.tasks)-1]
		return
	default:
		return
	}
	if opkind.Local(c.ops[i].Kind, c.ops[i].Res) {
		c.local++
	}
}

// entry is the enabled op of task t, as offer presents it.
func (m *machine) entry(t *Task) strategy.Op {
	op := &t.op
	loc := uint64(op.PC) // as sig, inline
	if m.stableLocs {
		loc = t.locKey()
	}
	return strategy.Op{
		Task: t.ID, Kind: op.Kind, Res: op.Res, Read: op.Read,
		Sig: strategy.Sig{Task: t.Key, Loc: loc},
	}
}
