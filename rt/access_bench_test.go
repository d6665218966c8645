package rt_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// BenchmarkAccess measures a store to memory a task owns (no op after its
// first but one in 4,096: owned.go; stores, since reads alone that long are
// a spin, steps) while another task is alive, so that the task does not
// run alone: a word stored with Write, and an array of three words stored
// whole with WriteValue (its two further parts noted for the detector).
func BenchmarkAccess(b *testing.B) {
	type triple [3]int
	for _, c := range []struct {
		name  string
		store func(p *triple)
	}{
		{"word", func(p *triple) { *rt.Write(&p[0], "p[0]") = 1 }},
		{"value3", func(p *triple) { *rt.WriteValue(p, "*p") = triple{} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			_, err := morpheus.Explore(func(*morpheus.Env) {
				p, end := new(triple), rt.Make[chan bool](0)
				rt.Go(func() { rt.Recv(end) })
				b.ResetTimer()
				for range b.N {
					c.store(p)
				}
				b.StopTimer()
				rt.Send(end, true)
			}, morpheus.Iterations(1), morpheus.Workers(1), morpheus.MaxSteps(1<<40))
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
