package micro

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/strategy"
)

// Sampler is a strategy under test.
type Sampler struct {
	Name  string                   // as on the command line and in reports
	New   func() strategy.Strategy // a fresh instance, one per goroutine
	Dummy bool                     // give every thread a start op (see NewExec)
}

// chunk is the unit of work of Sample: a fixed number of samples, so that the
// split of the work does not depend on the number of workers.
const chunk = 1 << 14

// Sample runs samples iterations of sm on the program of sp and returns how
// many hit each of its partial orders. Iteration i is seeded with a seed
// derived from seed and i alone, and every strategy under test starts each
// iteration afresh, so the counts do not depend on workers (≤ 0: GOMAXPROCS),
// which split the iterations in chunks.
func Sample(sp *Space, sm Sampler, samples int, seed uint64, workers int) ([]int64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := (samples + chunk - 1) / chunk
	workers = max(1, min(workers, chunks))
	var (
		nextChunk atomic.Int64
		mu        sync.Mutex
		total     = make([]int64, sp.POs())
		firstErr  error
		wg        sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts, err := sampleChunks(sp, sm, samples, seed, &nextChunk)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			for i, c := range counts {
				total[i] += c
			}
		}()
	}
	wg.Wait()
	return total, firstErr
}

// sampleChunks runs chunks until none is left and returns its counts.
func sampleChunks(sp *Space, sm Sampler, samples int, seed uint64, nextChunk *atomic.Int64) ([]int64, error) {
	counts := make([]int64, sp.POs())
	x, err := NewExec(sp.Program, sm.Dummy)
	if err != nil {
		return nil, err
	}
	s := sm.New()
	for {
		c := int(nextChunk.Add(1) - 1)
		lo := c * chunk
		if lo >= samples {
			return counts, nil
		}
		for i := lo; i < min(lo+chunk, samples); i++ {
			mask, err := x.Run(s, mix(seed, uint64(i)))
			if err != nil {
				return counts, err
			}
			id, ok := sp.Lookup(mask)
			if !ok {
				panic("micro: a schedule's canonical form is not among the enumerated partial orders")
			}
			counts[id]++
		}
	}
}
