// Package record holds the recorder of a running iteration's events, the
// core's trace buffer: chunked, and past a bound a ring plus the schedule a
// replay needs (see Recorder).
package record

import "github.com/morpheus-go/morpheus/trace"

// chunkBits sets the size of a recorder chunk (4096 events, 128 KiB).
const chunkBits = 12

const chunkSize = 1 << chunkBits

// keepChunks is how many chunks a recorder keeps for the next iteration,
// and how many it fills before it wraps (Window): 65,536 events, 2 MiB.
const keepChunks = 16

// ringChunks is how many chunks a recorder that wrapped cycles through
// (8,192 events, 256 KiB): few enough to stay in the cache.
const ringChunks = 2

// Recorder accumulates the events of a running iteration in fixed-size chunks,
// so a long run never copies what it already recorded and its memory grows
// linearly. Reset keeps the chunks for the next iteration.
//
// A recorder told it may drop events (Window) fills at most keepChunks
// chunks: past them it wraps, reusing ringChunks of them as a ring of the
// latest events, and keeps of each older event only what a replay needs
// (Schedule). An iteration of millions of steps then writes a few bytes per step to
// memory that stays in the cache, instead of 32 bytes per step to memory
// that grows; its full trace, if wanted, is rebuilt by replaying the
// schedule.
type Recorder struct {
	chunks [][]trace.Event
	cur    []trace.Event // the chunk event n goes to, once n is not on a chunk's boundary
	n      int
	// off selects the chunk of event i, (i>>chunkBits) &^ off: 0 until the
	// recorder wraps at event wrapAt, then ^(ringChunks-1).
	off    int
	wrapAt int
	window bool
	// sched holds the steps of the events before compacted once wrapped,
	// each as task<<8 | kind (a task id from wideTask on as wideTask<<8 |
	// kind, then the id), in chunks of schedChunk (a slice that grew would
	// copy what it holds again and again); choices holds their values.
	sched     [][]uint32
	nsched    int
	choices   []int64
	compacted int
}

const schedChunk = 1 << 16

// wideTask is the first task id that does not fit a schedule entry beside
// its kind; it marks an entry whose task id follows.
const wideTask = 1<<24 - 1

// Append records e and returns its index.
func (r *Recorder) Append(e trace.Event) int {
	n := r.n
	if n&(chunkSize-1) == 0 {
		r.boundary()
	}
	r.cur[n&(chunkSize-1)] = e
	r.n = n + 1
	return n
}

// Slot makes room for the next event and returns it for the caller to
// fill in, or returns nil if that event starts a chunk: Append it then.
// Unlike Append it is inlined, which the runtime's step wants.
func (r *Recorder) Slot() *trace.Event {
	i := r.n & (chunkSize - 1)
	if i == 0 {
		return nil
	}
	r.n++
	return &r.cur[i]
}

// boundary readies the chunk that event r.n starts: a new one, or when the
// recorder wraps, the oldest, whose events go to the schedule first.
func (r *Recorder) boundary() {
	c := r.n >> chunkBits
	if r.off == 0 {
		if c < len(r.chunks) {
			r.cur = r.chunks[c]
			return
		}
		if !r.window || c < keepChunks {
			r.chunks = append(r.chunks, make([]trace.Event, chunkSize))
			r.cur = r.chunks[c]
			return
		}
		r.compactTo(r.n) // while every event is where At finds it
		r.off, r.wrapAt = ^(ringChunks - 1), r.n
	}
	r.compactTo(r.n - (ringChunks-1)<<chunkBits)
	r.cur = r.chunks[c&^r.off]
}

// compactTo adds the steps of the events up to end (exclusive) to the
// schedule.
func (r *Recorder) compactTo(end int) {
	for r.compacted < end { // a chunk's events at a time
		i := r.compacted
		off := i & (chunkSize - 1)
		stop := min(end, i-off+chunkSize)
		evs := r.chunks[(i>>chunkBits)&^r.off][off : off+stop-i]
		n := r.nsched
		dst := r.schedChunk(n)
		for k := range evs {
			e := &evs[k]
			if e.Kind == trace.KindClock { // not a step (Event.IsStep)
				continue
			}
			if n&(schedChunk-1) == 0 && n != r.nsched {
				r.nsched = n
				dst = r.schedChunk(n)
			}
			if e.Task < wideTask {
				dst[n&(schedChunk-1)] = uint32(e.Task)<<8 | uint32(e.Kind)
				n++
			} else { // the mark, then the id
				dst[n&(schedChunk-1)] = wideTask<<8 | uint32(e.Kind)
				if n++; n&(schedChunk-1) == 0 {
					r.nsched = n
					dst = r.schedChunk(n)
				}
				dst[n&(schedChunk-1)] = uint32(e.Task)
				n++
			}
			if e.Kind == trace.KindChoose {
				r.choices = append(r.choices, e.Val)
			}
		}
		r.nsched, r.compacted = n, stop
	}
}

// schedChunk returns the chunk of the schedule that step n goes to.
func (r *Recorder) schedChunk(n int) []uint32 {
	c := n / schedChunk
	if c == len(r.sched) {
		r.sched = append(r.sched, make([]uint32, schedChunk))
	}
	return r.sched[c]
}

// At returns a pointer to event i, valid until the next Reset. Once the
// recorder has wrapped only the latest events are held (Held).
func (r *Recorder) At(i int) *trace.Event {
	return &r.chunks[(i>>chunkBits)&^r.off][i&(chunkSize-1)]
}

// Len returns the number of events recorded.
func (r *Recorder) Len() int { return r.n }

// Window sets whether the recorder may drop events: past keepChunks
// chunks it then wraps (see Recorder). Set it before the first Append of an
// iteration; Reset turns it off.
func (r *Recorder) Window(on bool) { r.window = on }

// Wrapped reports whether events were dropped: only the latest are held,
// and the iteration's steps are in Schedule.
func (r *Recorder) Wrapped() bool { return r.off != 0 }

// Held reports whether event i is still held.
func (r *Recorder) Held(i int) bool { return i >= r.oldest() && i < r.n }

// oldest returns the index of the oldest event held: 0, or once the
// recorder has wrapped, the first of the ring's chunks that end with the
// latest event, but none from before the wrap.
func (r *Recorder) oldest() int {
	if r.off == 0 {
		return 0
	}
	return max(((r.n-1)>>chunkBits-(ringChunks-1))<<chunkBits, r.wrapAt)
}

// Schedule returns the steps recorded, in order, as events that hold only
// what a replay follows: the task, the kind and, for a choice, the value
// chosen. It is meant for a recorder that wrapped, whose older events are
// gone; it works on any.
func (r *Recorder) Schedule() []trace.Event {
	r.compactTo(r.n)
	out := make([]trace.Event, 0, r.nsched)
	c := 0
	for i := 0; i < r.nsched; i++ {
		s := r.sched[i/schedChunk][i%schedChunk]
		e := trace.Event{Task: int32(s >> 8), Obj: -1, Kind: trace.Kind(s & 0xff)}
		if e.Task == wideTask {
			i++
			e.Task = int32(r.sched[i/schedChunk][i%schedChunk])
		}
		if e.Kind == trace.KindChoose {
			e.Val = r.choices[c]
			c++
		}
		out = append(out, e)
	}
	return out
}

// Reset forgets the recorded events and keeps the memory, up to a bound;
// the recorder no longer may drop events (Window).
func (r *Recorder) Reset() {
	r.n, r.off, r.wrapAt, r.window, r.compacted, r.cur = 0, 0, 0, false, 0, nil
	clear(r.sched[min(len(r.sched), 1):]) // keep one chunk, not a long iteration's schedule
	r.sched, r.nsched, r.choices = r.sched[:min(len(r.sched), 1)], 0, r.choices[:0]
	if cap(r.choices) > 1<<16 {
		r.choices = nil
	}
	if len(r.chunks) > keepChunks {
		clear(r.chunks[keepChunks:])
		r.chunks = r.chunks[:keepChunks]
	}
}

// Events returns a copy of the recorded events as one slice: all of them,
// or once the recorder has wrapped, those it still holds.
func (r *Recorder) Events() []trace.Event {
	from := r.oldest()
	out := make([]trace.Event, 0, r.n-from)
	for i := from; i < r.n; i++ {
		out = append(out, *r.At(i))
	}
	return out
}
