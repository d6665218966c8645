package strategy

import "math/bits"

// sigSet is the table's storage: an open-addressing hash table from
// signature to state, with linear probing, at most half full. CA looks a
// signature up for every op it is offered, so lookups must be cheap: a
// multiply and a compare, where a Go map hashes the 16-byte key with a
// general-purpose hash. A slot with state 0 is empty (every stored state has
// sigSeen). Its zero value is an empty set.
type sigSet struct {
	slots []sigSlot // len a power of two, or 0
	n     int       // slots in use
	shift uint      // 64 - log2(len(slots))
}

type sigSlot struct {
	sig Sig
	st  sigState
}

// home returns the slot where probing for s starts.
func (h *sigSet) home(s Sig) int {
	x := s.Task ^ bits.RotateLeft64(s.Loc, 32)
	x *= 0x9e3779b97f4a7c15
	return int(x >> h.shift)
}

// get returns the state of s, 0 if absent.
func (h *sigSet) get(s Sig) sigState {
	if h.n == 0 {
		return 0
	}
	mask := len(h.slots) - 1
	for i := h.home(s); ; i = (i + 1) & mask {
		sl := &h.slots[i]
		if sl.st == 0 || sl.sig == s {
			return sl.st
		}
	}
}

// add adds the facts st (which include sigSeen) to s's state.
func (h *sigSet) add(s Sig, st sigState) {
	if 2*(h.n+1) > len(h.slots) {
		h.rehash(max(16, 2*len(h.slots)))
	}
	mask := len(h.slots) - 1
	for i := h.home(s); ; i = (i + 1) & mask {
		sl := &h.slots[i]
		if sl.st == 0 {
			*sl = sigSlot{s, st}
			h.n++
			return
		}
		if sl.sig == s {
			sl.st |= st
			return
		}
	}
}

// reserve makes room for n entries, so that adding up to n in all
// rehashes at most once. Merge needs it: it adds another set's entries in
// the order of their slots, which is the order of their hashes, and into a
// smaller table of the same hash they would pile up in a few runs that
// every later add must walk (linear probing's primary clustering).
func (h *sigSet) reserve(n int) {
	if 2*n <= len(h.slots) {
		return
	}
	size := max(16, len(h.slots))
	for 2*n > size {
		size *= 2
	}
	h.rehash(size)
}

// rehash moves the entries into n slots, n a power of two.
func (h *sigSet) rehash(n int) {
	old := h.slots
	h.slots = make([]sigSlot, n)
	h.shift = uint(64 - bits.TrailingZeros(uint(n)))
	mask := n - 1
	for _, sl := range old {
		if sl.st == 0 {
			continue
		}
		i := h.home(sl.sig)
		for h.slots[i].st != 0 {
			i = (i + 1) & mask
		}
		h.slots[i] = sl
	}
}

// clear empties h, keeping its slots.
func (h *sigSet) clear() {
	clear(h.slots)
	h.n = 0
}

// clone returns a copy of h.
func (h *sigSet) clone() sigSet {
	c := *h
	c.slots = append([]sigSlot(nil), h.slots...)
	return c
}
