package trace

// Tree clocks (Mathur, Pavlogiannis, Tunç and Viswanathan, "A Tree Clock
// Data Structure for Causal Orderings in Concurrent Executions", ASPLOS
// 2022), the data-race detector's clocks (Races).
//
// A tree clock holds what a vector clock holds, an entry per task, and
// arranges the tasks it knows in a tree: v is a child of u when the clock
// learned v's entry through u, and v's attachment (aclk) is u's version at
// which u knew it. A join walks the source from its root, and where the
// target already knows a task's version it knows that task's whole subtree
// too, and every later sibling whose attachment the target's entry of the
// parent covers (siblings are kept newest attachment first): the walk
// stops there. So a join costs about the entries that change, not one per
// task, and so does a copy onto a clock the source is known to include.
//
// The walk is sound only if a task's version names one set of knowledge:
// (u, k) knows the same at every moment. A task's step count does not: a
// clock may learn without a step of its own (a Sync onto a blocked task,
// several Syncs in one step). So every entry is two numbers: ver, which
// counts the task's steps and the joins that brought its clock news (a
// join ticks it before it attaches what it learned), and stp, the task's
// steps alone, which is the entry of the vector clock and what the race
// check compares (stp is a monotone function of ver, so the maximum of two
// entries by ver is the maximum by stp). The trees use ver; the values
// returned are stp.
//
// A task's clock is rooted at the task. An object's clock (a lock's
// releases, a channel slot, a message) is a copy of a task's clock, rooted
// at that task, or, once it has joined clocks that did not include it (the
// Adds of a WaitGroup), a virtual root whose children are the roots of what
// it joined.

// tcNode is a task's entry in a tree clock. Links are task+1 (0: none); a
// parent tcVirtual is the virtual root.
type tcNode struct {
	ver, stp, aclk            uint32
	parent, child, next, prev int32
}

// tcVirtual is the link of the virtual root.
const tcVirtual int32 = -1

// tclock is a tree clock. The zero tclock is an empty object clock; a
// task's clock is made with own.
type tclock struct {
	n     []tcNode // by task; an entry of version 0 is not in the tree
	root  int32    // link of the root, 0 if empty, or tcVirtual
	vkids int32    // the virtual root's first child
	own   int32    // link of the clock's task, 0 for an object's clock
}

// grow makes room for n tasks' entries, zero.
func (c *tclock) grow(n int) {
	if l := len(c.n); l < n {
		if cap(c.n) >= n {
			c.n = c.n[:n]
			clear(c.n[l:])
		} else {
			c.n = append(c.n, make([]tcNode, n-l)...)
		}
	}
}

// reset empties c, keeping its memory; t ≥ 0 makes it task t's clock.
func (c *tclock) reset(t int32) {
	c.n = c.n[:0]
	c.root, c.vkids, c.own = 0, 0, 0
	if t >= 0 {
		c.own, c.root = t+1, t+1
		c.grow(int(t) + 1)
	}
}

// at returns c's entry of task t: the steps of t it knows.
func (c *tclock) at(t int32) uint32 {
	if t < 0 || int(t) >= len(c.n) {
		return 0
	}
	return c.n[t].stp
}

// ver returns the version of task t that c knows.
func (c *tclock) ver(t int32) uint32 {
	if int(t) >= len(c.n) {
		return 0
	}
	return c.n[t].ver
}

// empty reports whether c knows nothing.
func (c *tclock) empty() bool {
	return c.root == 0 || (c.root > 0 && c.n[c.root-1].ver == 0)
}

// tick counts a step of c's task.
func (c *tclock) tick() {
	x := &c.n[c.own-1]
	x.ver++
	x.stp++
}

// knows reports whether c includes o, when o is a copy of a task's clock
// (its root is a task): c knows that task's version of it.
func (c *tclock) knows(o *tclock) bool {
	return o.root > 0 && c.ver(o.root-1) >= o.n[o.root-1].ver
}

// detach takes v (a link) out of its parent's children; a root or an entry
// not in the tree stays as it is.
func (c *tclock) detach(v int32) {
	x := &c.n[v-1]
	switch {
	case x.prev != 0:
		c.n[x.prev-1].next = x.next
	case x.parent == tcVirtual:
		c.vkids = x.next
	case x.parent > 0:
		c.n[x.parent-1].child = x.next
	}
	if x.next != 0 {
		c.n[x.next-1].prev = x.prev
	}
	x.parent, x.next, x.prev = 0, 0, 0
}

// attach makes v a child of p (a link, or tcVirtual) with attachment a,
// right after its sibling after, or first if after is 0.
func (c *tclock) attach(v, p int32, a uint32, after int32) {
	x := &c.n[v-1]
	x.parent, x.aclk, x.prev = p, a, after
	var head *int32
	switch {
	case after != 0:
		head = &c.n[after-1].next
	case p == tcVirtual:
		head = &c.vkids
	default:
		head = &c.n[p-1].child
	}
	x.next = *head
	*head = v
	if x.next != 0 {
		c.n[x.next-1].prev = v
	}
}

// news appends to buf the tasks (links) of s whose version c does not know,
// parents before children and each parent's in s's order, with, if z is
// not 0, z where s has it under one of them (MonotoneCopy's old root). The
// walk skips what c is known to know: a task whose version c knows, with
// its subtree, and the later siblings whose attachment c's entry of their
// parent covers.
func (c *tclock) news(s *tclock, buf []int32, z int32) []int32 {
	start := len(buf)
	switch {
	case s.root == tcVirtual:
		for r := s.vkids; r != 0; r = s.n[r-1].next {
			if s.n[r-1].ver > c.ver(r-1) {
				buf = append(buf, r)
			}
		}
	case s.root > 0 && s.n[s.root-1].ver > c.ver(s.root-1):
		buf = append(buf, s.root)
	}
	for k := start; k < len(buf); k++ {
		u := buf[k]
		known := c.ver(u - 1)
		for v := s.n[u-1].child; v != 0; v = s.n[v-1].next {
			sv := &s.n[v-1]
			if sv.ver > c.ver(v-1) {
				buf = append(buf, v)
				continue
			}
			if v == z {
				buf = append(buf, v)
			}
			if sv.aclk <= known {
				break
			}
		}
	}
	return buf
}

// place gives c the entries buf of s and hangs each under its parent in s
// with its attachment, keeping siblings in s's order; those whose parent in
// s is the virtual root, or s's root, go under p with attachment a, or, if
// p is 0, s's root becomes c's.
func (c *tclock) place(s *tclock, buf []int32, p int32, a uint32) {
	lastP, last := int32(0), int32(0)
	for _, v := range buf {
		sv := &s.n[v-1]
		par, ac := sv.parent, sv.aclk
		if par == 0 || par == tcVirtual {
			par, ac = p, a
		}
		c.detach(v)
		cv := &c.n[v-1]
		cv.ver, cv.stp = sv.ver, sv.stp
		if par == 0 {
			c.root = v
			continue
		}
		after := int32(0)
		if par == lastP {
			after = last
		}
		c.attach(v, par, ac, after)
		lastP, last = par, v
	}
}

// join makes c the join of c and s, s not c; buf is scratch memory, which
// it returns. A task's clock ticks its version first if it learns
// anything. An object's clock that does not include s gets a virtual root.
func (c *tclock) join(s *tclock, buf []int32) []int32 {
	if s.empty() {
		return buf
	}
	buf = c.news(s, buf[:0], 0)
	if len(buf) == 0 {
		return buf
	}
	c.grow(len(s.n))
	p, a := tcVirtual, uint32(0)
	switch {
	case c.own != 0:
		x := &c.n[c.own-1]
		x.ver++
		p, a = c.own, x.ver
	case c.root > 0: // a copy of a task's clock no more: its root under a virtual one
		r := c.root
		c.root, c.vkids = tcVirtual, 0
		c.attach(r, tcVirtual, 0, 0)
	default:
		c.root = tcVirtual
	}
	c.place(s, buf, p, a)
	return buf
}

// copyFrom makes the object clock c a copy of s, a task's clock or a copy
// of one; buf is scratch memory, which it returns. When c is known to be
// included in s (empty, or a copy of a task's clock that s knows: the
// caller checks), only what changed moves (MonotoneCopy); else c is
// emptied first.
func (c *tclock) copyFrom(s *tclock, buf []int32) []int32 {
	if s.empty() {
		c.reset(-1)
		return buf
	}
	if c.root == tcVirtual || (c.root > 0 && !s.knows(c)) {
		c.reset(-1)
	}
	z := c.root
	if z == s.root { // equal clocks, or c the older copy of the same task's
		z = 0
	}
	buf = c.news(s, buf[:0], z)
	if len(buf) == 0 {
		return buf // c and s know the same, from the same root
	}
	c.grow(len(s.n))
	c.place(s, buf, 0, 0) // s's root first
	return buf
}
