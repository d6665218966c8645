package hb

import (
	"fmt"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// raceOp is one call of a benchmark's run: a step, a Sync (b < 0) or a
// Handoff.
type raceOp struct {
	e    trace.Event
	a, b int32
	key  uint64
	step bool
}

// raceWorkload returns the calls of a run of g goroutines (tasks 1..g,
// spawned by task 0), and how many of them synchronise:
//
//   - pairs: the goroutines pass a token back and forth in pairs, each pair
//     on its own unbuffered channel (a Handoff), 64 rounds, a step of
//     each in between; a WaitGroup's Done each, task 0's Wait and a write
//     last. What a handoff teaches is one step of the partner.
//   - semaphore: an errgroup with a limit of 4: task 0 fills a slot of a
//     buffered channel (a Sync on the slot) and spawns; the goroutine
//     writes its own location, reads a shared one, and empties a slot;
//     task 0's Wait last. A goroutine's first synchronisation teaches it
//     everyone's steps before it: news in every entry, whatever the clocks.
//   - ring: a token goes round the goroutines, 16 rounds, each hop a
//     Handoff: every hop brings news of the whole ring.
//
// Only the semaphore's goroutines access memory, so that the others measure
// the clocks alone.
func raceWorkload(kind string, g int) (ops []raceOp, syncs int) {
	step := func(e trace.Event) { ops = append(ops, raceOp{e: e, step: true}) }
	sync := func(a int32, key uint64) { ops = append(ops, raceOp{a: a, b: -1, key: key}); syncs++ }
	handoff := func(a, b int32, key uint64) { ops = append(ops, raceOp{a: a, b: b, key: key}); syncs++ }
	const wg, shared = 1000, 1
	for i := 1; i <= g; i++ {
		if kind == "semaphore" {
			step(sev(0, trace.KindYield, 0, 0, -1, 0))
			sync(0, 1<<40|uint64(i%4))
		}
		step(sev(0, trace.KindSpawn, 0, 0, int32(i), 0))
	}
	switch kind {
	case "pairs":
		for range 64 {
			for i := int32(1); i+1 <= int32(g); i += 2 {
				step(sev(i, trace.KindYield, 0, 0, -1, 0))
				step(sev(i, trace.KindChanSend, 0, 0, -1, 0))
				handoff(i, i+1, 1<<40|uint64(i))
				step(sev(i+1, trace.KindYield, 0, 0, -1, 0))
				step(sev(i+1, trace.KindChanSend, 0, 0, -1, 0))
				handoff(i+1, i, 1<<40|uint64(i))
			}
		}
	case "semaphore":
		for i := int32(1); i <= int32(g); i++ {
			step(sev(i, trace.KindMemWrite, 2+uint32(i), 0, -1, 0))
			step(sev(i, trace.KindMemRead, shared, trace.FlagRead, -1, 0))
			step(sev(i, trace.KindChanRecv, 0, 0, -1, 0))
			sync(i, 1<<40|uint64(i%4))
		}
	case "ring":
		for range 16 {
			for i := int32(1); i <= int32(g); i++ {
				j := i%int32(g) + 1
				step(sev(i, trace.KindYield, 0, 0, -1, 0))
				step(sev(i, trace.KindChanSend, 0, 0, -1, 0))
				handoff(i, j, 1<<40|uint64(i))
			}
		}
	}
	for i := int32(1); i <= int32(g); i++ {
		step(sev(i, trace.KindWGAdd, wg, 0, -1, 0))
	}
	step(sev(0, trace.KindWGWait, wg, 0, -1, 1))
	step(sev(0, trace.KindMemWrite, shared, 0, -1, 0))
	return ops, syncs
}

// runRaceOps runs ops on d from a Reset, failing on a race.
func runRaceOps(b testing.TB, d *Races, ops []raceOp) {
	d.Reset()
	for k := range ops {
		op := &ops[k]
		switch {
		case op.step:
			if r, ok := d.Step(&op.e); ok {
				b.Fatalf("race %+v", r)
			}
		case op.b < 0:
			d.Sync(op.a, op.key)
		default:
			d.Handoff(op.a, op.b, op.key)
		}
	}
}

// BenchmarkRaces measures the detector on runs of 2, 64 and 1,024
// goroutines; ns/sync is the time of a run over its synchronisations
// (Syncs and Handoffs).
//
//	go test -run '^$' -bench Races ./trace
func BenchmarkRaces(b *testing.B) {
	for _, kind := range []string{"pairs", "semaphore", "ring"} {
		for _, g := range []int{2, 64, 1024} {
			ops, syncs := raceWorkload(kind, g)
			b.Run(fmt.Sprintf("%s/g=%d", kind, g), func(b *testing.B) {
				d := &Races{ChanSync: true}
				runRaceOps(b, d, ops) // warm: memory kept by Reset
				b.ResetTimer()
				for b.Loop() {
					runRaceOps(b, d, ops)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*syncs), "ns/sync")
			})
		}
	}
}

// TestRaceWorkloads: the benchmarks' runs report no race.
func TestRaceWorkloads(t *testing.T) {
	for _, kind := range []string{"pairs", "semaphore", "ring"} {
		ops, _ := raceWorkload(kind, 40)
		runRaceOps(t, &Races{ChanSync: true}, ops)
	}
}
