package hb

// resIndex maps a resource to its index in a walk's per-resource state.
// Resources are numbered densely from 1 within a run, so the small ones
// are looked up in a slice, stamped with the walk they belong to so that a
// new walk forgets them all at once; the others in a map. The zero value is
// empty.
type resIndex struct {
	dense []resEntry
	walk  uint32 // resets so far; entries stamped other than walk+1 are absent
	other map[uint32]int32
}

type resEntry struct {
	stamp uint32 // walk+1 of the walk that put it, 0 for none
	k     int32
}

// denseRes bounds the resources kept in the slice.
const denseRes = 1 << 16

func (x *resIndex) get(res uint32) (int32, bool) {
	if res < uint32(len(x.dense)) {
		e := x.dense[res]
		return e.k, e.stamp == x.walk+1
	}
	if res < denseRes {
		return 0, false
	}
	k, ok := x.other[res]
	return k, ok
}

func (x *resIndex) put(res uint32, k int32) {
	if res < denseRes {
		if res >= uint32(len(x.dense)) {
			x.dense = append(x.dense, make([]resEntry, int(res)+1-len(x.dense))...)
			x.dense = x.dense[:cap(x.dense)]
		}
		x.dense[res] = resEntry{stamp: x.walk + 1, k: k}
		return
	}
	if x.other == nil {
		x.other = make(map[uint32]int32)
	}
	x.other[res] = k
}

// reset forgets every resource.
func (x *resIndex) reset() {
	x.walk++
	if x.walk+1 == 0 { // the stamps wrap: old entries could look current
		clear(x.dense)
		x.walk = 0
	}
	clear(x.other)
}
