package hb

import "github.com/morpheus-go/morpheus/trace"

// ConflictingEvents marks every step event of t that conflicts with another one
// (as ConflictPairs defines a conflict): buf[i] is true if event i is one side
// of at least one conflicting pair. buf is reused if it is long enough.
//
// It marks what calling ConflictPairs with func(i, j) { buf[i], buf[j] = true,
// true } marks, without listing the pairs: where many tasks race on one
// resource (a thousand goroutines on one semaphore) the pairs grow with
// the square of the accesses, while marking skips the accesses it has
// already marked, so its cost stays near the number of events times the
// number of tasks touching their resources.
func ConflictingEvents(t *trace.Trace, buf []bool) []bool {
	if cap(buf) < len(t.Events) {
		buf = make([]bool, len(t.Events))
	} else {
		buf = buf[:len(t.Events)]
		clear(buf)
	}
	var w syncWalker
	w.init(t)
	var m markRaces
	var k killWatch
	k.reset(t, len(w.clock))
	for j := range t.Events {
		vc := w.step(t, j)
		if vc == nil {
			continue
		}
		e := &t.Events[j]
		if i := k.race(e, vc); i >= 0 {
			buf[i], buf[j] = true, true
		}
		k.after(j, e, vc)
		if e.Res == 0 {
			continue
		}
		m.access(buf, j, e, w.raceClock(vc))
	}
	return buf
}

// markRaces is hbRaces for ConflictingEvents: per resource and task the accesses
// so far, each list with a range of positions known to be marked already.
type markRaces struct {
	res   resIndex // resource -> index in byRes
	byRes []markResource
}

// access marks event j (task e.Task, clock vc) and the earlier events it
// conflicts with, and records it.
func (r *markRaces) access(buf []bool, j int, e *trace.Event, vc VC) {
	k, ok := r.res.get(e.Res)
	if !ok {
		k = int32(len(r.byRes))
		r.res.put(e.Res, k)
		if int(k) < cap(r.byRes) { // a resource of an earlier walk (ConflictMarker.Reset)
			r.byRes = r.byRes[:k+1]
			r.byRes[k].reuse()
		} else {
			r.byRes = append(r.byRes, markResource{})
		}
	}
	rs := &r.byRes[k]
	read := e.Flag&trace.FlagRead != 0
	kind := 0
	if read {
		kind = 1 // a read races only with writes, a write with every access
		if !rs.read {
			rs.readFirst()
		}
	}
	var mine int
	if rs.few() {
		mine = rs.scan(buf, j, e.Task, kind, vc)
		if mine < 0 {
			mine = rs.add(e.Task)
		}
	} else {
		after := rs.ordered(e.Task, vc)
		if !after {
			rs.scanOpen(buf, j, e.Task, kind, vc)
		}
		if mine = rs.find(e.Task); mine < 0 {
			mine = rs.add(e.Task)
		}
		// A write that conflicts with no access happens after all of them;
		// a read was checked against the writes only. (j may be marked
		// already by a kill in ConflictingEvents: then it is not known to be.)
		rs.latest, rs.latestClk = int32(mine), vc[e.Task]
		rs.latestAfter = after || (!read && !buf[j])
	}
	a := hbAccess{i: j, clk: vc[e.Task]}
	ta := &rs.lists[mine]
	ta.lists[0].acc = append(ta.lists[0].acc, a)
	rs.tasks[mine].last[0] = a.clk
	rs.reopen(0, mine)
	many := !rs.few()
	if many {
		rs.at.set(0, e.Task, a.clk)
	}
	if !read && rs.read {
		ta.lists[1].acc = append(ta.lists[1].acc, a)
		rs.tasks[mine].last[1] = a.clk
		rs.reopen(1, mine)
		if many {
			rs.at.set(1, e.Task, a.clk)
		}
	}
}
