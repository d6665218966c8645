package hb

// msgClocks holds the clock of every message sent and not yet received, by
// message id, for hbWalker. A runtime numbers an iteration's messages from
// 0, so the small ids are kept in a slice (a walk then costs no map
// operation per message); the others in a map. The zero value is empty.
type msgClocks struct {
	dense []VC // by id below denseMsgs; an empty clock is no message
	hi    int  // entries of dense past hi are empty
	other map[int64]VC
}

// denseMsgs bounds the message ids kept in the slice.
const denseMsgs = 1 << 12

// take removes the clock of message id and returns it.
func (m *msgClocks) take(id int64) (VC, bool) {
	switch {
	case id < 0:
		return nil, false
	case id < int64(len(m.dense)):
		vc := m.dense[id]
		m.dense[id] = nil
		return vc, len(vc) > 0
	case id < denseMsgs:
		return nil, false
	}
	vc, ok := m.other[id]
	if ok {
		delete(m.other, id)
	}
	return vc, ok
}

// put records vc, which is not empty, as the clock of message id (id ≥ 0).
func (m *msgClocks) put(id int64, vc VC) {
	if id < denseMsgs {
		if id >= int64(len(m.dense)) {
			m.dense = append(m.dense, make([]VC, int(id)+1-len(m.dense))...)
			m.dense = m.dense[:cap(m.dense)]
		}
		m.dense[id] = vc
		m.hi = max(m.hi, int(id)+1)
		return
	}
	if m.other == nil {
		m.other = make(map[int64]VC)
	}
	m.other[id] = vc
}

// drain removes every clock and returns spare with their memory appended.
func (m *msgClocks) drain(spare []VC) []VC {
	for id, vc := range m.dense[:m.hi] {
		if cap(vc) > 0 {
			spare = append(spare, vc[:0])
		}
		m.dense[id] = nil
	}
	m.hi = 0
	for _, vc := range m.other {
		spare = append(spare, vc[:0])
	}
	clear(m.other)
	return spare
}
