package trace

// chunkBits sets the size of a recorder chunk (4096 events, 128 KiB).
const chunkBits = 12

const chunkSize = 1 << chunkBits

// Recorder accumulates the events of a running iteration in fixed-size chunks,
// so a long run never copies what it already recorded and its memory grows
// linearly. Reset keeps the chunks for the next iteration.
type Recorder struct {
	chunks [][]Event
	n      int
}

// Append records e and returns its index.
func (r *Recorder) Append(e Event) int {
	c := r.n >> chunkBits
	if c == len(r.chunks) {
		r.chunks = append(r.chunks, make([]Event, chunkSize))
	}
	r.chunks[c][r.n&(chunkSize-1)] = e
	r.n++
	return r.n - 1
}

// At returns a pointer to event i, valid until the next Reset.
func (r *Recorder) At(i int) *Event { return &r.chunks[i>>chunkBits][i&(chunkSize-1)] }

// Len returns the number of events recorded.
func (r *Recorder) Len() int { return r.n }

// Reset forgets the recorded events and keeps the memory, up to a bound.
func (r *Recorder) Reset() {
	r.n = 0
	const keep = 16 // chunks kept for reuse (2 MiB): more is returned to the GC
	if len(r.chunks) > keep {
		clear(r.chunks[keep:])
		r.chunks = r.chunks[:keep]
	}
}

// Events returns a copy of the recorded events as one slice.
func (r *Recorder) Events() []Event {
	out := make([]Event, r.n)
	for i := 0; i < r.n; i += chunkSize {
		copy(out[i:], r.chunks[i>>chunkBits])
	}
	return out
}
