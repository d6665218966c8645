package morpheus_test

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/systems/storage"
)

// BenchmarkCoverage measures what counting distinct partial orders costs: 200
// iterations of the fixed storage system on one worker, with and without it.
func BenchmarkCoverage(b *testing.B) {
	test := storage.Test(storage.Config{FixDuplicates: true, FixReset: true})
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				res, err := morpheus.Explore(test, morpheus.Iterations(200), morpheus.Workers(1), morpheus.Seed(1),
					morpheus.ClockLimit(time.Minute), morpheus.Coverage(on), morpheus.Strategy("pos"))
				if err != nil || res.Failure != nil {
					b.Fatal(err, res.Failure)
				}
			}
		})
	}
}

// BenchmarkShrinkStorage measures shrinking bug A of the storage system (the
// failure found with seed 7): the search alone, its candidates run on one
// worker.
func BenchmarkShrinkStorage(b *testing.B) {
	test := storage.Test(storage.Config{FixReset: true})
	opts := []morpheus.Option{morpheus.Seed(7), morpheus.Workers(1), morpheus.ClockLimit(time.Minute), morpheus.Iterations(3000)}
	for _, n := range []int{0, morpheus.DefaultShrink} {
		name := "off"
		if n > 0 {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				res, err := morpheus.Explore(test, append(opts, morpheus.Shrink(n))...)
				if err != nil || res.Failure == nil {
					b.Fatal(err)
				}
			}
		})
	}
}
