package hb

import (
	"reflect"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// syncKinds names every kind syncHB.step acts on: for any other kind, step
// changes neither the step's clock, nor the other tasks', nor what it keeps.
func TestSyncKindsComplete(t *testing.T) {
	for k := range 256 {
		kind := trace.Kind(k)
		if syncKinds[kind] {
			continue
		}
		for _, val := range []int64{trace.ValClosed, trace.ValNone, 0, 1, 2} {
			mk := func() syncHB {
				s := syncHB{pair: map[int64]VC{1: {5, 5, 5}}, sig: map[int64]VC{1: {6, 6, 6}}, preSet: true}
				*s.at(1) = syncRes{rel: VC{7, 7, 7}, rrel: VC{8, 8, 8}, last: VC{9, 9, 9}, lastBy: stamp{2, 1},
					hasLast: true, closed: VC{4, 4, 4}}
				return s
			}
			s, before := mk(), mk()
			c := VC{1, 0, 0}
			clocks := []VC{c, {}, {0, 0, 1}}
			e := &trace.Event{Task: 0, Obj: 1, Res: 1, Kind: kind, Val: val}
			s.step(e, &c, clocks)
			before.preSet = false
			if !reflect.DeepEqual(s, before) || !reflect.DeepEqual(c, VC{1, 0, 0}) || len(clocks[1]) != 0 {
				t.Fatalf("kind %v (val %d) changes what syncHB.step keeps, but is not in syncKinds", kind, val)
			}
		}
	}
}
