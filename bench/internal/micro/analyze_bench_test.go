package micro_test

import (
	"testing"

	"github.com/morpheus-go/morpheus/bench/internal/micro"
)

// BenchmarkAnalyze counts the partial orders of the benchmark's first
// program (16 events) two ways: Analyze, which merges schedule prefixes that
// are the same partial order, and the reference enumeration of every total
// order, depth first. The package doc's claim that the first is much faster
// rests on this pair (figures in BENCHMARKS.md).
func BenchmarkAnalyze(b *testing.B) {
	ps, err := micro.Suite(false, 1)
	if err != nil {
		b.Fatal(err)
	}
	p := ps[0]
	for _, a := range []struct {
		name string
		f    func(*micro.Program) (*micro.Space, error)
	}{{"merged", micro.Analyze}, {"enumerated", micro.AnalyzeByEnumeration}} {
		b.Run(a.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := a.f(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
