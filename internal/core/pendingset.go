package core

import (
	"iter"
	"math/bits"
)

// pendingSet holds tasks with a pending op of one state (the machine keeps
// one of the enabled ops, which collect walks at every step, and one of the
// timed ops), as a bitset of task ids with a summary bitset of its non-zero
// words. Ascending ids are creation order,
// the order in which enabled sets are presented to strategies; adding and
// removing a task cost the same however many tasks there are. A walk (see
// collect) goes through the words and, at a zero word, skips to the next
// non-zero one through the summary: it costs a word per 4,096 tasks plus
// the words it finds (an iteration of 10,000 tasks of which a few are
// pending does not look at the others).
type pendingSet struct {
	words []uint64 // bit id%64 of words[id/64]: task id is in the set
	sum   []uint64 // bit i%64 of sum[i/64]: words[i] is not zero
}

// fit makes room for task id; add needs it done (newTask does it).
func (s *pendingSet) fit(id int32) {
	for int(id>>6) >= len(s.words) {
		s.words = append(s.words, 0)
		if len(s.words) > len(s.sum)<<6 {
			s.sum = append(s.sum, 0)
		}
	}
}

func (s *pendingSet) add(id int32) {
	w := int(id >> 6)
	s.words[w] |= 1 << (uint(id) & 63)
	s.sum[w>>6] |= 1 << (uint(w) & 63)
}

func (s *pendingSet) remove(id int32) {
	w := int(id >> 6)
	if s.words[w] &^= 1 << (uint(id) & 63); s.words[w] == 0 {
		s.sum[w>>6] &^= 1 << (uint(w) & 63)
	}
}

// reset empties the set, keeping its memory.
func (s *pendingSet) reset() {
	clear(s.words)
	clear(s.sum)
	s.words, s.sum = s.words[:0], s.sum[:0]
}

// skip returns the index of the first non-zero word after word w, or
// len(s.words) if there is none.
func (s *pendingSet) skip(w int) int {
	w++
	for si := w >> 6; si < len(s.sum); si, w = si+1, 0 {
		if x := s.sum[si] &^ (1<<(uint(w)&63) - 1); x != 0 {
			return si<<6 | bits.TrailingZeros64(x)
		}
	}
	return len(s.words)
}

// all yields the ids in the set in ascending order. A zero word is skipped
// to the next non-zero one through the summary.
func (s *pendingSet) all() iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for wi := 0; wi < len(s.words); wi++ {
			w := s.words[wi]
			if w == 0 {
				wi = s.skip(wi) - 1
				continue
			}
			for ; w != 0; w &= w - 1 {
				if !yield(int32(wi<<6 | bits.TrailingZeros64(w))) {
					return
				}
			}
		}
	}
}
