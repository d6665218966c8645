package trace_test

import (
	"strconv"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

func TestParseKindRoundTrip(t *testing.T) {
	for k := trace.KindInvalid + 1; ; k++ {
		name := k.String()
		if name == "kind("+strconv.Itoa(int(k))+")" {
			break // past the last kind
		}
		if got, ok := trace.ParseKind(name); !ok || got != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", name, got, ok, k)
		}
	}
	if _, ok := trace.ParseKind("no-such-kind"); ok {
		t.Error("ParseKind accepted an unknown name")
	}
}

// Traces written before the process watch was renamed still decode.
func TestParseKindLegacy(t *testing.T) {
	for name, want := range map[string]trace.Kind{"monitor": trace.KindWatch, "demonitor": trace.KindUnwatch} {
		if got, ok := trace.ParseKind(name); !ok || got != want {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
}
