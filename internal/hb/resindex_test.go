package hb

import "testing"

// A resIndex forgets everything at reset, also when its stamps wrap, and
// keeps small and large resources alike.
func TestResIndexReset(t *testing.T) {
	var x resIndex
	for _, res := range []uint32{1, 7, denseRes - 1, denseRes, 1 << 31} {
		if _, ok := x.get(res); ok {
			t.Fatalf("resource %d found in an empty index", res)
		}
		x.put(res, int32(res%100))
		if k, ok := x.get(res); !ok || k != int32(res%100) {
			t.Fatalf("resource %d: got %d %v", res, k, ok)
		}
	}
	x.walk = ^uint32(0) - 1 // the next reset wraps the stamps
	x.put(7, 3)
	for range 3 {
		x.reset()
		if _, ok := x.get(7); ok {
			t.Fatalf("resource 7 survived a reset (walk %d)", x.walk)
		}
		if _, ok := x.get(1 << 31); ok {
			t.Fatal("a large resource survived a reset")
		}
		x.put(7, 3)
	}
}

// msgClocks keeps the clocks of small and large message ids until taken,
// and drain empties it into the spare clocks.
func TestMsgClocks(t *testing.T) {
	var m msgClocks
	ids := []int64{0, 5, denseMsgs - 1, denseMsgs, 1 << 40}
	for i, id := range ids {
		m.put(id, VC{uint32(i + 1)})
	}
	if _, ok := m.take(-1); ok {
		t.Error("took a negative id")
	}
	if vc, ok := m.take(5); !ok || vc.At(0) != 2 {
		t.Errorf("take(5) = %v %v", vc, ok)
	}
	if _, ok := m.take(5); ok {
		t.Error("took message 5 twice")
	}
	if _, ok := m.take(6); ok {
		t.Error("took a message never sent")
	}
	spare := m.drain(nil)
	if len(spare) != len(ids)-1 {
		t.Errorf("drain gave %d clocks, want %d", len(spare), len(ids)-1)
	}
	for _, id := range ids {
		if _, ok := m.take(id); ok {
			t.Errorf("message %d survived drain", id)
		}
	}
}
