package rt

import (
	crand "crypto/rand"
	"math/rand/v2"
)

// crypto/rand's Read and Text, in rewritten code, draw from a generator of
// the schedule (a stream of its own, seeded from the schedule's seed), so
// that what code derives from them, such as the UUIDs hashicorp/raft's tests
// name their servers by, is the same in a replay: a schedule that orders
// them (a range over a map keyed by them) then replays. The bytes are not
// secret. Outside control they are crypto/rand's. crypto/rand.Reader itself
// is left alone.

// randStreamCrypto is the stream of the generator CryptoRead draws from.
const randStreamCrypto = 0x72616e63

// CryptoRead stands for crypto/rand.Read.
func CryptoRead(b []byte) (n int, err error) {
	g := gens()
	if g == nil {
		return crand.Read(b)
	}
	if g.crypto == nil {
		g.pcgCrypto.Seed(g.seed, randStreamCrypto)
		g.crypto = rand.New(&g.pcgCrypto)
	}
	for i := range b {
		b[i] = byte(g.crypto.Uint32())
	}
	return len(b), nil
}

// CryptoText stands for crypto/rand.Text: 26 characters of the base32
// alphabet.
func CryptoText() string {
	if gens() == nil {
		return crand.Text()
	}
	const base32alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	src := make([]byte, 26)
	CryptoRead(src)
	for i := range src {
		src[i] = base32alphabet[src[i]%32]
	}
	return string(src)
}
