package explore

import (
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// Conflict analysis's knowledge has the methods the driver reaches it by:
// were one renamed, no table would be saved and no stats reported.
func TestConflictKnowledgeMethods(t *testing.T) {
	ca := strategy.WithCA(strategy.NewPOS(), nil)
	for _, k := range []strategy.Knowledge{ca.Prior(), ca.Learned()} {
		if _, ok := k.(advancer); !ok {
			t.Errorf("%T: no Advance", k)
		}
		if conflictTable(k) == nil || conflictStats(k) == nil {
			t.Errorf("%T: no conflict table or stats", k)
		}
	}
	next := advance(ca.Prior(), nil)
	if conflictTable(next) == nil {
		t.Errorf("advanced knowledge lost its table")
	}
}
