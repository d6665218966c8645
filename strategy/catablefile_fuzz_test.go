package strategy_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// FuzzTableLoad checks that Load never panics, that its errors name a line,
// and that a table it accepts saves to text that loads back to the same
// table. Seeds live in testdata/fuzz/FuzzTableLoad.
func FuzzTableLoad(f *testing.F) {
	f.Add([]byte("morpheus-ca-table 1\n0000000000000001 s main.go:3\n00000000000000ff c pkg.f:12\n"))
	f.Add([]byte("morpheus-ca-table 1\n"))
	f.Add([]byte("morpheus-ca-table 2\n"))
	f.Add([]byte("morpheus-ca-table 1\n000000000000001 s x\n"))
	f.Add([]byte("morpheus-ca-table 1\n0000000000000001 q x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys := map[string]uint64{}
		texts := map[uint64]string{}
		loc := func(text string) uint64 {
			k, ok := keys[text]
			if !ok {
				k = uint64(len(keys) + 1)
				keys[text], texts[k] = k, text
			}
			return k
		}
		tb := strategy.NewTable()
		if err := tb.Load(bytes.NewReader(data), loc); err != nil {
			if !strings.Contains(err.Error(), "line ") {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := tb.Save(&out, func(l uint64) string { return texts[l] }); err != nil {
			t.Fatalf("save of a loaded table: %v", err)
		}
		again := strategy.NewTable()
		if err := again.Load(bytes.NewReader(out.Bytes()), loc); err != nil {
			t.Fatalf("reload: %v\n%s", err, out.Bytes())
		}
		var out2 bytes.Buffer
		if err := again.Save(&out2, func(l uint64) string { return texts[l] }); err != nil || out2.String() != out.String() {
			t.Fatalf("save/load/save differs:\n%s\n%s", out.Bytes(), out2.Bytes())
		}
	})
}
