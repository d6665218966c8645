package trace

import "sort"

// The data-race detector's clocks (Races): vector clocks that remember what
// changed, so that a join costs the entries that changed since the target
// last heard of the source, not one per task.
//
// A task's clock keeps, besides its entries, a log of the entries that
// changed in it, each with the task's own entry (its step) at the time. A
// clock that knows step v of task w knows w's clock as it was at some
// moment of that step; so to join w's clock as of its step vw (w's clock
// itself, or a copy of it: an object's clock remembers whose clock it
// copies, stamp), it takes the entries w's log lists at steps v to vw, and
// w's own entry, rather than every entry. When that is more than a small
// fraction of the clock, or the log no longer reaches back to v, or a join
// of w's clock went the dense way (which lists nothing, and leaves a mark
// in the log), the join is the dense one, a pass over every entry in
// vector instructions (vclock_join.go): as cheap per entry as a join gets,
// and what a synchronisation that brings news of most tasks (a token going
// round a ring) costs with any clock.
//
// Tree clocks (Mathur, Pavlogiannis, Tunç and Viswanathan, ASPLOS 2022)
// bound a join by what changed as well, but every entry they move costs a
// walk of links, some twenty times the dense pass's cost per entry: they
// made the ring and a semaphore shared by all goroutines 20 to 60 times
// slower (BENCHMARKS.md), where these clocks cost what the dense ones do.
//
// The entries are exactly the vector clocks' (syncWalker's), and so are
// the races found: a join takes the maximum of the entries it looks at,
// and the ones it skips are those the target already has.

// rclock is a clock of the race detector: a task's (own is its task+1) or
// an object's.
type rclock struct {
	vc  VC
	own int32
	// by names the task whose clock an object's clock is a copy of, and its
	// step then (task -1: none, a join of several clocks, or empty).
	by stamp
	// A task's clock: the changes of its entries other than its own, in
	// order, every one at steps ≥ from.
	log  []clockChange
	from uint32
}

// clockChange is a change of entry task of a task's clock at the task's
// step at; task -1 marks entries changed without being listed.
type clockChange struct {
	at   uint32
	task int32
}

// noStamp is the stamp of an object's clock that copies no task's.
var noStamp = stamp{task: -1}

// reset empties c, keeping its memory; t ≥ 0 makes it task t's clock.
func (c *rclock) reset(t int32) {
	c.vc = c.vc[:0]
	c.own, c.by = 0, noStamp
	c.log, c.from = c.log[:0], 0
	if t >= 0 {
		c.own = t + 1
		c.vc.grow(int(t) + 1)
	}
}

// at returns c's entry of task t.
func (c *rclock) at(t int32) uint32 { return c.vc.At(t) }

// tick counts a step of c's task.
func (c *rclock) tick() { c.vc[c.own-1]++ }

// source returns the task whose clock c is, or copies, and its step then.
func (c *rclock) source() (stamp, bool) {
	if c.own != 0 {
		return stamp{c.own - 1, c.vc[c.own-1]}, true
	}
	return c.by, c.by.task >= 0
}

// knows reports whether c includes o, a copy of a task's clock.
func (c *rclock) knows(o *rclock) bool {
	return o.by.task >= 0 && o.by.knownBy(c.vc, c.own-1)
}

// noted records that entry k of c, a task's clock, changed (k -1: entries
// not listed).
func (c *rclock) noted(k int32) {
	if c.own == 0 {
		return
	}
	at := c.vc[c.own-1]
	if n := len(c.log); n > 0 && c.log[n-1] == (clockChange{at, -1}) {
		return // already marked at this step
	}
	if len(c.log) >= raceLogBase+len(c.vc)/2 {
		c.trim()
	}
	c.log = append(c.log, clockChange{at, k})
}

// raceLogBase is the length of a task's log, plus half an entry per task,
// past which its older half is dropped (a variable for the tests).
var raceLogBase = 128

// trim drops the older half of c's log, or what precedes its last step.
func (c *rclock) trim() {
	x := c.log[len(c.log)/2].at
	j := sort.Search(len(c.log), func(i int) bool { return c.log[i].at >= x })
	if j == 0 { // the older half all of one step: a mark for that step
		k := sort.Search(len(c.log), func(i int) bool { return c.log[i].at > x })
		c.log[k-1] = clockChange{x, -1}
		c.log, c.from = c.log[:copy(c.log, c.log[k-1:])], x
		return
	}
	c.log, c.from = c.log[:copy(c.log, c.log[j:])], x
}

// span returns the changes of c's log at steps v to vw, or false if the
// log does not list them all or they are more than limit.
func (c *rclock) span(v, vw uint32, limit int) ([]clockChange, bool) {
	if v < c.from {
		return nil, false
	}
	lo := sort.Search(len(c.log), func(i int) bool { return c.log[i].at >= v })
	hi := lo
	for hi < len(c.log) && c.log[hi].at <= vw {
		if c.log[hi].task < 0 || hi-lo >= limit {
			return nil, false
		}
		hi++
	}
	return c.log[lo:hi], true
}

// raceDenseBelow is the length of clocks whose joins are always dense: a
// pass over so few entries costs less than a look at the log (a variable
// for the tests).
var raceDenseBelow = 32

// deltaLimit bounds the changes a join looks at before it takes the dense
// way, for clocks of n entries: a change costs some ten times what an
// entry of the dense pass does.
func deltaLimit(n int) int { return 4 + n/32 }

// join makes c the join of c and s; clocks are the tasks' clocks, whose
// logs list what changed in their copies.
func (c *rclock) join(s *rclock, clocks []rclock) {
	if len(s.vc) > 0 && !c.delta(s, clocks) {
		c.vc.Join(s.vc)
		c.noted(-1)
	}
}

// delta makes c the join of c and s, s not empty, by the entries its
// source's log lists, and reports whether it could (false: c unchanged).
func (c *rclock) delta(s *rclock, clocks []rclock) bool {
	st, ok := s.source()
	if !ok {
		return false
	}
	if st.knownBy(c.vc, c.own-1) {
		return true // c knows all of it
	}
	if len(s.vc) <= raceDenseBelow {
		return false
	}
	lg := s
	if s.own == 0 {
		lg = &clocks[st.task]
	}
	changes, ok := lg.span(c.vc.At(st.task), st.clk, deltaLimit(len(s.vc)))
	if !ok {
		return false
	}
	c.vc.grow(len(s.vc))
	for _, ch := range changes {
		c.take(s, ch.task)
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
	if len(c.vc) == 0 || len(s.vc) == 0 || !c.delta(s, clocks) {
		c.vc = append(c.vc[:0], s.vc...)
		if c.own != 0 {
			c.vc.grow(int(c.own)) // s has c's own entry, unless it is 0
			c.noted(-1)
		}
	}
	if c.own == 0 {
		c.by = noStamp
		if st, ok := s.source(); ok {
			c.by = st
		}
	}
}

// copyFrom makes c, an object's clock, a copy of s; clocks as for join.
// When c is a copy of a clock s includes, only what changed is copied.
func (c *rclock) copyFrom(s *rclock, clocks []rclock) {
	if len(c.vc) > 0 && s.knows(c) {
		c.assign(s, clocks)
		return
	}
	c.vc = append(c.vc[:0], s.vc...)
	c.by = noStamp
	if st, ok := s.source(); ok {
		c.by = st
	}
}
