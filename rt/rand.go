package rt

import (
	mrand "math/rand"
	"math/rand/v2"

	"github.com/morpheus-go/morpheus/internal/core"
)

// math/rand's and math/rand/v2's global functions, in rewritten code, draw
// from a generator of the schedule, seeded from the schedule's own seed:
// the same seed (and so a replay) gives the same values in the same order,
// and another schedule other values. They are not scheduling points. A call
// outside control (package initialization, TestMain) uses the real global
// generator. rand.Seed(s) reseeds the schedule's generator from s.
//
// The rewriter renames them: math/rand's F is RandF, math/rand/v2's F is
// Rand2F.

// randState is a schedule's two generators.
type randState struct {
	pcg1 rand.PCG
	v1   *mrand.Rand
	pcg2 rand.PCG
	v2   *rand.Rand
	// The order of ranges over maps (RangeMap) and crypto/rand's bytes
	// (CryptoRead), made on first use.
	seed      uint64
	pcgMap    rand.PCG
	maps      *rand.Rand
	pcgCrypto rand.PCG
	crypto    *rand.Rand
	// The seeds of testing/quick's generators (QuickConfig).
	pcgQuick    rand.PCG
	quickSeeded bool
}

// pcgSource is a math/rand Source64 over a PCG.
type pcgSource struct{ p *rand.PCG }

func (s pcgSource) Int63() int64    { return int64(s.p.Uint64() >> 1) }
func (s pcgSource) Uint64() uint64  { return s.p.Uint64() }
func (s pcgSource) Seed(seed int64) { s.p.Seed(uint64(seed), 0x6d617468) }

// Streams of the two generators, mixed with the schedule's seed.
const (
	randStream1 = 0x72616e64
	randStream2 = 0x72616e32
)

func gens() *randState {
	t := core.CurrentTask()
	if t == nil {
		return nil
	}
	r := t.Run()
	s := state(r)
	if s.rand == nil {
		g := &randState{seed: r.Seed()}
		g.pcg1.Seed(r.Seed(), randStream1)
		g.pcg2.Seed(r.Seed(), randStream2)
		g.v1 = mrand.New(pcgSource{&g.pcg1})
		g.v2 = rand.New(&g.pcg2)
		s.rand = g
	}
	return s.rand
}

func v1() *mrand.Rand {
	if g := gens(); g != nil {
		return g.v1
	}
	return nil
}

func v2() *rand.Rand {
	if g := gens(); g != nil {
		return g.v2
	}
	return nil
}

// RandSeed stands for math/rand.Seed.
func RandSeed(seed int64) {
	if g := gens(); g != nil {
		g.v1.Seed(seed)
		return
	}
	//lint:ignore SA1019 what the code under test called
	mrand.Seed(seed)
}

// RandInt stands for math/rand.Int.
func RandInt() int {
	if r := v1(); r != nil {
		return r.Int()
	}
	return mrand.Int()
}

// RandIntn stands for math/rand.Intn.
func RandIntn(n int) int {
	if r := v1(); r != nil {
		return r.Intn(n)
	}
	return mrand.Intn(n)
}

// RandInt31 stands for math/rand.Int31.
func RandInt31() int32 {
	if r := v1(); r != nil {
		return r.Int31()
	}
	return mrand.Int31()
}

// RandInt31n stands for math/rand.Int31n.
func RandInt31n(n int32) int32 {
	if r := v1(); r != nil {
		return r.Int31n(n)
	}
	return mrand.Int31n(n)
}

// RandInt63 stands for math/rand.Int63.
func RandInt63() int64 {
	if r := v1(); r != nil {
		return r.Int63()
	}
	return mrand.Int63()
}

// RandInt63n stands for math/rand.Int63n.
func RandInt63n(n int64) int64 {
	if r := v1(); r != nil {
		return r.Int63n(n)
	}
	return mrand.Int63n(n)
}

// RandUint32 stands for math/rand.Uint32.
func RandUint32() uint32 {
	if r := v1(); r != nil {
		return r.Uint32()
	}
	return mrand.Uint32()
}

// RandUint64 stands for math/rand.Uint64.
func RandUint64() uint64 {
	if r := v1(); r != nil {
		return r.Uint64()
	}
	return mrand.Uint64()
}

// RandFloat32 stands for math/rand.Float32.
func RandFloat32() float32 {
	if r := v1(); r != nil {
		return r.Float32()
	}
	return mrand.Float32()
}

// RandFloat64 stands for math/rand.Float64.
func RandFloat64() float64 {
	if r := v1(); r != nil {
		return r.Float64()
	}
	return mrand.Float64()
}

// RandExpFloat64 stands for math/rand.ExpFloat64.
func RandExpFloat64() float64 {
	if r := v1(); r != nil {
		return r.ExpFloat64()
	}
	return mrand.ExpFloat64()
}

// RandNormFloat64 stands for math/rand.NormFloat64.
func RandNormFloat64() float64 {
	if r := v1(); r != nil {
		return r.NormFloat64()
	}
	return mrand.NormFloat64()
}

// RandPerm stands for math/rand.Perm.
func RandPerm(n int) []int {
	if r := v1(); r != nil {
		return r.Perm(n)
	}
	return mrand.Perm(n)
}

// RandShuffle stands for math/rand.Shuffle.
func RandShuffle(n int, swap func(i, j int)) {
	if r := v1(); r != nil {
		r.Shuffle(n, swap)
		return
	}
	mrand.Shuffle(n, swap)
}

// RandRead stands for math/rand.Read.
func RandRead(p []byte) (int, error) {
	if r := v1(); r != nil {
		return r.Read(p)
	}
	//lint:ignore SA1019 what the code under test called
	return mrand.Read(p)
}
