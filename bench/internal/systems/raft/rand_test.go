package raft

import (
	"bytes"
	cryptorand "crypto/rand"
	"io"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// A process's crypto/rand stream is a function of its controlled choice:
// two runs with one seed read the same bytes, and processes read distinct
// streams. Goroutines outside morpheus keep the real reader.
func TestJitterStreams(t *testing.T) {
	read := func(seed uint64) [][]byte {
		var out [][]byte
		res := mtest.Explore(t, func(e *morpheus.Env) {
			n := e.NewNode("n", nil)
			for id := range uint64(2) {
				n.Spawn("p", func(e *morpheus.Env) {
					defer useJitter(e, id+1)()
					b := make([]byte, 16)
					if _, err := io.ReadFull(cryptorand.Reader, b); err != nil {
						e.Fatalf("read: %v", err)
					}
					out = append(out, b)
				})
			}
		}, morpheus.Seed(seed), morpheus.Iterations(1), morpheus.Strategy("random"))
		mtest.MustPass(t, res)
		return out
	}
	a, b := read(3), read(3)
	if len(a) != 2 || !bytes.Equal(a[0], b[0]) || !bytes.Equal(a[1], b[1]) {
		t.Fatalf("same seed, different bytes: %x vs %x", a, b)
	}
	if bytes.Equal(a[0], a[1]) {
		t.Fatalf("two processes read the same stream %x", a[0])
	}
	x, y := make([]byte, 16), make([]byte, 16)
	cryptorand.Read(x)
	cryptorand.Read(y)
	if bytes.Equal(x, y) || bytes.Equal(x, a[0]) {
		t.Fatalf("outside morpheus, crypto/rand repeats itself: %x %x", x, y)
	}
}

// After the process ends, its stream is gone.
func TestJitterReleased(t *testing.T) {
	res := mtest.Explore(t, func(e *morpheus.Env) {
		useJitter(e, 1)()
	}, morpheus.Iterations(3))
	mtest.MustPass(t, res)
	n := 0
	sources.Range(func(any, any) bool { n++; return true })
	if n != 0 {
		t.Fatalf("%d streams left registered", n)
	}
}
