// Package netrand dials, listens and draws random numbers: under the
// rewriter the network is the schedule's in-memory one and the draws come
// from the schedule's generator.
package netrand

import (
	"context"
	crand "crypto/rand"
	"math/big"
	"math/rand"
	randv2 "math/rand/v2"
	"net"
	"time"
)

// Serve listens on a free port and returns the listener.
func Serve() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

// Connect dials addr three ways.
func Connect(ctx context.Context, addr string) ([]net.Conn, error) {
	var out []net.Conn
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	out = append(out, c)
	if c, err = net.DialTimeout("tcp", addr, time.Second); err != nil {
		return nil, err
	}
	out = append(out, c)
	var d net.Dialer
	if c, err = d.DialContext(ctx, "tcp", addr); err != nil {
		return nil, err
	}
	out = append(out, c)
	pd := &net.Dialer{Timeout: time.Second}
	c, err = pd.Dial("tcp", addr)
	return append(out, c), err
}

// Jitter draws from both math/rand packages; r, a generator of its own, is
// left alone.
func Jitter(r *rand.Rand) time.Duration {
	rand.Seed(7)
	n := rand.Intn(10) + int(rand.Int63n(5)) + r.Intn(3)
	rand.Shuffle(3, func(i, j int) {})
	n += randv2.IntN(4) + int(randv2.N[int64](3))
	return time.Duration(n) * randv2.N(time.Millisecond)
}

// UUID draws 16 bytes from crypto/rand, as hashicorp/go-uuid does: Read and
// Text draw from the schedule's generator; Reader is left alone.
func UUID() ([]byte, string, *big.Int) {
	buf := make([]byte, 16)
	if _, err := crand.Read(buf); err != nil {
		panic(err)
	}
	n, _ := crand.Int(crand.Reader, big.NewInt(10))
	return buf, crand.Text(), n
}
