package trace

// The data-race detector's clocks (Races): vector clocks that remember what
// changed, so that a join costs the entries that changed since the target
// last heard of the source, not one per task.
//
// A task's clock keeps, besides its entries, a log of the entries other
// than its own that changed in it, in order; its length names the clock's
// state (a log position). Every clock remembers, for the few tasks it
// joined last (those it will most likely join again), a position of each
// one's log whose state it includes (pos: raised when it joins the task's
// clock or a copy of it, never more than it knows; 0, the task's empty
// clock, for the others); an object's clock that copies a task's clock
// remembers whose, and at which step and position (by, byPos). To join w's
// clock as of position q, a clock that includes w's state at position p
// takes the entries w's log lists between p and q, and w's own entry, rather than
// every entry: the others are unchanged since p. When they are more than a
// small fraction of the clock, or the log no longer reaches back to p, or a
// join of w's clock went the dense way (which lists nothing, and leaves a
// mark in the log), the join is the dense one, a pass over every entry in
// vector instructions (vclock_join.go): as cheap per entry as a join gets,
// and what a synchronisation that brings news of most tasks (a token going
// round a ring) costs with any clock.
//
// Tree clocks (Mathur, Pavlogiannis, Tunç and Viswanathan, ASPLOS 2022)
// bound a join by what changed as well, but every entry they move costs a
// walk of links, many times the dense pass's cost per entry: they made the
// ring and a semaphore shared by all goroutines many times slower
// (BENCHMARKS.md), where these clocks cost what the dense ones do.
//
// The entries are exactly the vector clocks' (syncWalker's), and so are
// the races found: a join takes the maximum of the entries it looks at,
// and the ones it skips are those the target already has.

// rclock is a clock of the race detector: a task's (own is its task+1) or
// an object's.
type rclock struct {
	vc  VC
	own int32
	// pos holds, for a few tasks w, a position of w's log whose state c
	// includes (0 for the others): those c joined last, which are those it
	// will join again, with next the entry to replace.
	pos  [knownLogs]taskPos
	next uint8
	// by names the task whose clock an object's clock is a copy of, and its
	// step then (task -1: none, a join of several clocks, or empty); byPos
	// the position of its log then.
	by    stamp
	byPos int32
	// A task's clock: the tasks whose entries changed, in order (-1: entries
	// changed without being listed); log[i] is change base+i of the clock.
	log  []int32
	base int32
}

// taskPos is a position of task+1's log (task+1 0: none).
type taskPos struct{ task, pos int32 }

// knownLogs is how many tasks' log positions a clock keeps.
const knownLogs = 8

// noStamp is the stamp of an object's clock that copies no task's.
var noStamp = stamp{task: -1}

// reset empties c, keeping its memory; t ≥ 0 makes it task t's clock.
func (c *rclock) reset(t int32) {
	c.vc = c.vc[:0]
	c.pos, c.next = [knownLogs]taskPos{}, 0
	c.own, c.by, c.byPos = 0, noStamp, 0
	c.log, c.base = c.log[:0], 0
	if t >= 0 {
		c.own = t + 1
		c.vc.grow(int(t) + 1)
	}
}

// at returns c's entry of task t.
func (c *rclock) at(t int32) uint32 { return c.vc.At(t) }

// tick counts a step of c's task.
func (c *rclock) tick() { c.vc[c.own-1]++ }

// end returns the position of c's log after its last change.
func (c *rclock) end() int32 { return c.base + int32(len(c.log)) }

// source returns the task whose clock c is, or copies, its step and its
// log's position then.
func (c *rclock) source() (stamp, int32, bool) {
	if c.own != 0 {
		return stamp{c.own - 1, c.vc[c.own-1]}, c.end(), true
	}
	return c.by, c.byPos, c.by.task >= 0
}

// knows reports whether c includes o, a copy of a task's clock.
func (c *rclock) knows(o *rclock) bool {
	return o.by.task >= 0 && o.by.knownBy(c.vc, c.own-1)
}

// known returns the position of task w's log whose state c includes.
func (c *rclock) known(w int32) int32 {
	for _, tp := range c.pos {
		if tp.task == w+1 {
			return tp.pos
		}
	}
	return 0
}

// learn records that c includes task w's state at position p of its log.
func (c *rclock) learn(w, p int32) {
	if len(c.vc) <= raceDenseBelow {
		return // its joins are dense: forgetting is cheaper, and safe
	}
	for k := range c.pos {
		if c.pos[k].task == w+1 {
			c.pos[k].pos = max(c.pos[k].pos, p)
			return
		}
	}
	c.pos[c.next] = taskPos{w + 1, p}
	c.next = (c.next + 1) % knownLogs
}

// noted records that entry k of c, a task's clock, changed (k -1: entries
// not listed).
func (c *rclock) noted(k int32) {
	if c.own == 0 {
		return
	}
	if len(c.vc) <= raceDenseBelow {
		// Joins of a clock this short are dense: a new position that no
		// log lists from, rather than a list nobody reads.
		c.base, c.log = c.end()+1, c.log[:0]
		return
	}
	if len(c.log) >= raceLogBase+len(c.vc)/2 {
		h := len(c.log) / 2 // drop the older half
		c.log, c.base = c.log[:copy(c.log, c.log[h:])], c.base+int32(h)
	}
	c.log = append(c.log, k)
}

// raceLogBase is the length of a task's log, plus half an entry per task,
// past which its older half is dropped (a variable for the tests).
var raceLogBase = 128

// span returns the changes of c's log from position p to q, or false if
// the log does not list them all or they are more than limit.
func (c *rclock) span(p, q int32, limit int) ([]int32, bool) {
	if p < c.base || q-p > int32(limit) {
		return nil, false
	}
	if p >= q {
		return nil, true
	}
	changes := c.log[p-c.base : q-c.base]
	for _, k := range changes {
		if k < 0 {
			return nil, false
		}
	}
	return changes, true
}

// raceDenseBelow is the length of clocks whose joins are always dense: a
// pass over so few entries costs less than a look at the log (a variable
// for the tests).
var raceDenseBelow = 256

// deltaLimit bounds the changes a join looks at before it takes the dense
// way, for clocks of n entries: a change costs some ten times what an
// entry of the dense pass does.
func deltaLimit(n int) int { return 4 + n/32 }

// join makes c the join of c and s; clocks are the tasks' clocks, whose
// logs list what changed in their copies.
func (c *rclock) join(s *rclock, clocks []rclock) {
	if len(s.vc) == 0 {
		return
	}
	st, q, ok := s.source()
	if ok && st.knownBy(c.vc, c.own-1) {
		c.learn(st.task, q)
		return // c knows all of it
	}
	if !ok || !c.delta(s, st, q, clocks) {
		c.vc.Join(s.vc)
		c.noted(-1)
	}
	if ok {
		c.learn(st.task, q)
	}
}

// delta makes c the join of c and s, a copy of task st.task's clock at
// position q of its log, by the entries the log lists since the position c
// knows, and reports whether it could (false: c unchanged).
func (c *rclock) delta(s *rclock, st stamp, q int32, clocks []rclock) bool {
	if len(s.vc) <= raceDenseBelow {
		return false
	}
	lg := s
	if s.own == 0 {
		lg = &clocks[st.task]
	}
	changes, ok := lg.span(c.known(st.task), q, deltaLimit(len(s.vc)))
	if !ok {
		return false
	}
	c.vc.grow(len(s.vc))
	for _, k := range changes {
		c.take(s, k)
	}
	c.take(s, st.task)
	return true
}

// take makes c's entry of task k the maximum of c's and s's.
func (c *rclock) take(s *rclock, k int32) {
	if x := s.vc.At(k); x > c.vc.At(k) {
		c.vc[k] = x
		c.noted(k)
	}
}

// assign makes c a copy of s, which includes it: the entries that changed,
// or a copy of them all. An object's clock then copies s's source.
func (c *rclock) assign(s *rclock, clocks []rclock) {
	st, q, ok := s.source()
	if len(c.vc) == 0 || !ok || !c.delta(s, st, q, clocks) {
		c.vc = append(c.vc[:0], s.vc...)
		if c.own != 0 {
			c.vc.grow(int(c.own)) // s has c's own entry, unless it is 0
			c.noted(-1)
		}
	}
	c.copied(st, q, ok)
	if c.own != 0 && s.own != 0 {
		s.learn(c.own-1, c.end()) // s includes c's state now: what c logged, s had
	}
}

// copied records that c, now a copy of the clock s whose source is st at
// position q (if ok), includes that state.
func (c *rclock) copied(st stamp, q int32, ok bool) {
	if !ok {
		st, q = noStamp, 0
	} else {
		c.learn(st.task, q)
	}
	if c.own == 0 {
		c.by, c.byPos = st, q
	}
}

// copyFrom makes c, an object's clock, a copy of s; clocks as for join.
// When c is a copy of a clock s includes, only what changed is copied;
// else every entry, and c forgets what it knew of the tasks' logs.
func (c *rclock) copyFrom(s *rclock, clocks []rclock) {
	if len(c.vc) > 0 && s.knows(c) {
		c.assign(s, clocks)
		return
	}
	c.vc = append(c.vc[:0], s.vc...)
	c.pos, c.next = [knownLogs]taskPos{}, 0
	st, q, ok := s.source()
	c.copied(st, q, ok)
}
