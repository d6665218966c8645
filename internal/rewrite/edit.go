package rewrite

import (
	"sort"
	"strings"
)

// An edit replaces the source bytes [start, end) of a file by what emit
// writes. emit renders the parts it keeps (sub-expressions, bodies) through
// the renderer, so edits nest: a send inside a goroutine inside a select is
// rewritten at every level. Edits never partly overlap. Edits of the same
// span layer, the first added outermost: an edit that renders its own span
// gets it with the edits below it applied (a map read of a shared field is
// __rt.ReadMap(*__rt.Read(&s.m)), two edits of s.m).
type edit struct {
	start, end int
	emit       func(r *renderer, b *strings.Builder)
}

// renderer applies edits to a file's source.
type renderer struct {
	src    []byte
	edits  []edit // sorted by start, then by decreasing end
	active []bool // the edits being emitted
}

func newRenderer(src []byte, edits []edit) *renderer {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].start != edits[j].start {
			return edits[i].start < edits[j].start
		}
		return edits[i].end > edits[j].end
	})
	return &renderer{src: src, edits: edits, active: make([]bool, len(edits))}
}

// span writes the source [start, end) with the edits inside it applied.
func (r *renderer) span(b *strings.Builder, start, end int) {
	i := sort.Search(len(r.edits), func(i int) bool { return r.edits[i].start >= start })
	pos := start
	for ; i < len(r.edits) && r.edits[i].start < end; i++ {
		e := r.edits[i]
		if e.start < pos || e.end > end || r.active[i] {
			continue // inside an edit already applied, not within the span, or being applied
		}
		b.Write(r.src[pos:e.start])
		r.active[i] = true
		e.emit(r, b)
		r.active[i] = false
		pos = e.end
	}
	b.Write(r.src[pos:end])
}
