package micro_test

import (
	"testing"

	"github.com/morpheus-go/morpheus/bench/internal/micro"
)

// BenchmarkExec measures one iteration of a 16-event program per strategy,
// the unit of work of "morpheus bench micro".
func BenchmarkExec(b *testing.B) {
	ps, _ := micro.Suite(true, 1)
	sp, _ := micro.Analyze(ps[5])
	for _, sm := range micro.Samplers(sp, true) {
		b.Run(sm.Name, func(b *testing.B) {
			x, _ := micro.NewExec(sp.Program, sm.Dummy)
			s := sm.New()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				mask, err := x.Run(s, uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				if _, ok := sp.Lookup(mask); !ok {
					b.Fatal("unknown partial order")
				}
			}
		})
	}
}
