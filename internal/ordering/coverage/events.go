package coverage

// Events interns event keys to dense ids in order of first appearance.
type Events struct {
	keys []string
	ids  map[string]uint32
}

// NewEvents returns an empty table.
func NewEvents() *Events { return &Events{ids: map[string]uint32{}} }

// ID returns key's id, adding it if new.
func (e *Events) ID(key string) uint32 {
	if id, ok := e.ids[key]; ok {
		return id
	}
	id := uint32(len(e.keys))
	e.keys = append(e.keys, key)
	e.ids[key] = id
	return id
}

// Lookup returns key's id if known.
func (e *Events) Lookup(key string) (uint32, bool) {
	id, ok := e.ids[key]
	return id, ok
}

// Key returns the key of id.
func (e *Events) Key(id uint32) string { return e.keys[id] }

// Len is the number of events.
func (e *Events) Len() int { return len(e.keys) }

// IDs interns a trace of keys.
func (e *Events) IDs(trace []string) []uint32 {
	out := make([]uint32, len(trace))
	for i, k := range trace {
		out[i] = e.ID(k)
	}
	return out
}
