package raft

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	"io"
	mathrand "math/rand/v2"
	"sync"

	"github.com/morpheus-go/morpheus"
)

// Raft draws its randomized election timeout from crypto/rand
// (rand.Int(rand.Reader, n) behind a package-level mutex). A test must not
// depend on real randomness, and morpheus runs iterations on several workers
// at once, so one global deterministic stream would not do either: which
// worker draws next would decide the values.
//
// This package therefore replaces crypto/rand.Reader, once, with a reader
// that dispatches on the calling goroutine: a morpheus task that registered
// a jitter source (each raft process does, at start) reads from its own
// ChaCha8 stream; every other goroutine reads from the original reader, so
// the rest of the program keeps real randomness.
//
// A process's stream is seeded by one controlled choice (Env.Choose) made
// when the process starts. The choice is in the trace, so a replay draws the
// same jitter whatever iteration or worker replays it, and strategies vary
// it like any other choice. Choosing per read is not possible: raft reads
// while holding its own (real) mutex, and a choice is a scheduling point,
// so another raft process of the iteration could run and block on that
// mutex. testing/cryptotest.SetGlobalRandom (Go 1.24+) does not fit either:
// it installs one stream for the whole process, refuses parallel tests, and
// panics outside test binaries (morpheus bench runs this harness too).

// JitterSeeds is how many jitter streams a raft process chooses from.
const JitterSeeds = 1 << 16

var (
	realReader = cryptorand.Reader
	sources    sync.Map // morpheus.TaskKey -> *lockedSource
)

func init() { cryptorand.Reader = dispatchReader{} }

// dispatchReader is the installed crypto/rand.Reader.
type dispatchReader struct{}

func (dispatchReader) Read(b []byte) (int, error) {
	if t, ok := morpheus.CurrentTask(); ok {
		if s, ok := sources.Load(t); ok {
			return s.(*lockedSource).Read(b)
		}
	}
	return realReader.Read(b)
}

// lockedSource is a task's stream. Only its task reads it; the lock keeps
// the race detector's view simple when tasks move between carrier
// goroutines.
type lockedSource struct {
	mu sync.Mutex
	r  *mathrand.ChaCha8
}

func (s *lockedSource) Read(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Read(b)
}

// newSource returns the stream for a seed and a raft node id.
func newSource(seed int, id uint64) *lockedSource {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:8], uint64(seed))
	binary.LittleEndian.PutUint64(key[8:16], id)
	copy(key[16:], "morpheus-raft-jitter")
	return &lockedSource{r: mathrand.NewChaCha8(key)}
}

// useJitter gives the calling process its own deterministic crypto/rand
// stream, seeded by a controlled choice, until the returned function is
// called (defer it: it runs when the process exits or its node crashes).
func useJitter(e *morpheus.Env, id uint64) (release func()) {
	seed := e.Choose(JitterSeeds)
	t, _ := morpheus.CurrentTask()
	sources.Store(t, newSource(seed, id))
	return func() { sources.Delete(t) }
}

var _ io.Reader = dispatchReader{}
