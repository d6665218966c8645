package trace

import (
	"reflect"
	"testing"
)

// syncKinds names every kind syncHB.step acts on: for any other kind, step
// changes neither the step's clock, nor the other tasks', nor its maps.
func TestSyncKindsComplete(t *testing.T) {
	for k := range 256 {
		kind := Kind(k)
		if syncKinds[kind] {
			continue
		}
		for _, val := range []int64{ValClosed, ValNone, 0, 1, 2} {
			s := syncHB{
				pair: map[int64]VC{1: {5, 5, 5}}, sig: map[int64]VC{1: {6, 6, 6}},
				rel: map[uint32]VC{1: {7, 7, 7}}, rrel: map[uint32]VC{1: {8, 8, 8}},
				last: map[uint32]VC{1: {9, 9, 9}}, lastBy: map[uint32]stamp{1: {2, 1}},
				closed: map[uint32]VC{1: {4, 4, 4}}, preSet: true,
			}
			c := VC{1, 0, 0}
			clocks := []VC{c, {}, {0, 0, 1}}
			before := s
			before.pair, before.sig, before.rel, before.rrel = clone(s.pair), clone(s.sig), clone(s.rel), clone(s.rrel)
			before.last, before.closed = clone(s.last), clone(s.closed)
			e := &Event{Task: 0, Obj: 1, Res: 1, Kind: kind, Val: val}
			s.step(e, &c, clocks)
			before.preSet = false
			if !reflect.DeepEqual(s, before) || !reflect.DeepEqual(c, VC{1, 0, 0}) || len(clocks[1]) != 0 {
				t.Fatalf("kind %v (val %d) changes what syncHB.step keeps, but is not in syncKinds", kind, val)
			}
		}
	}
}

func clone[K comparable](m map[K]VC) map[K]VC {
	out := make(map[K]VC, len(m))
	for k, v := range m {
		out[k] = v.Clone()
	}
	return out
}
