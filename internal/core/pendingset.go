package core

// pendingSet holds the tasks whose pending op collect must look at (not
// parked: enabled, or waiting for a deadline), as a bitset of task ids.
// Ascending ids are creation order, the order in which enabled sets are
// presented to strategies; adding and removing a task cost the same however
// many tasks are pending, and a walk costs a word per 64 tasks plus the
// tasks it finds.
type pendingSet struct {
	words []uint64 // bit id%64 of word id/64: task id is pending
}

func (s *pendingSet) add(id int32) {
	w := int(id >> 6)
	for w >= len(s.words) {
		s.words = append(s.words, 0)
	}
	s.words[w] |= 1 << (uint(id) & 63)
}

func (s *pendingSet) remove(id int32) {
	s.words[id>>6] &^= 1 << (uint(id) & 63)
}

// reset empties the set, keeping its memory.
func (s *pendingSet) reset() {
	clear(s.words)
	s.words = s.words[:0]
}
