package report

import (
	"io"
	"testing"
)

// BenchmarkWrite measures writing the report of a failing run, for the
// demo's bug A (98 steps) and bug B (964 steps, drawn from its last 600).
func BenchmarkWrite(b *testing.B) {
	for _, name := range []string{"bugA", "bugB"} {
		d := failingData(load(b, name+".trace"))
		b.Run(name, func(b *testing.B) {
			var n countWriter
			for b.Loop() {
				if err := Write(&n, d); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/float64(b.N), "bytes/report")
		})
	}
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
