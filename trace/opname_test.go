package trace_test

import (
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// A step shows the op the code wrote where one kind stands for several; a
// step of a trace written before steps carried the op (Val 0) keeps its
// kind's name.
func TestOpName(t *testing.T) {
	for _, c := range []struct {
		e    trace.Event
		want string
	}{
		{trace.Event{Kind: trace.KindSwap, Val: int64(trace.PointAtomicAdd)}, "atomic-add"},
		{trace.Event{Kind: trace.KindSwap, Val: int64(trace.PointAtomicCAS)}, "atomic-cas"},
		{trace.Event{Kind: trace.KindLoad, Val: int64(trace.PointAtomicLoad)}, "atomic-load"},
		{trace.Event{Kind: trace.KindSwap, Val: int64(trace.PointMapStore)}, "syncmap-store"},
		{trace.Event{Kind: trace.KindSwap, Val: int64(trace.PointPoolGet)}, "pool-get"},
		{trace.Event{Kind: trace.KindSwap}, "swap"},           // csync.Var.Swap, or an old trace
		{trace.Event{Kind: trace.KindSwap, Val: 999}, "swap"}, // unknown: the kind
		{trace.Event{Kind: trace.KindWGAdd, Val: -1}, "wg-done"},
		{trace.Event{Kind: trace.KindWGAdd, Val: 2}, "wg-add"},
		{trace.Event{Kind: trace.KindAdd, Val: int64(trace.PointAtomicAdd)}, "add"},
	} {
		if got := c.e.OpName(); got != c.want {
			t.Errorf("%v val=%d: OpName %q, want %q", c.e.Kind, c.e.Val, got, c.want)
		}
	}
}
