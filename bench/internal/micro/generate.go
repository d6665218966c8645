package micro

import (
	"fmt"
	"math/rand/v2"
)

// Config describes a family of generated programs.
type Config struct {
	Name      string // "Uniform" or "Skewed", as in the thesis's tables
	Threads   int
	PerThread int   // events per thread
	Writes    []int // per object, the number of writes to it
	Reads     []int // per object, the number of reads (nil: none)
}

// The configurations of the thesis (§3.6.1): 4 threads × 4 events over 4
// objects, with 4 accesses per object (Uniform) or 2, 2, 6, 6 (Skewed); in the
// read variant (Table 3.2), half of each object's accesses are reads.
var (
	Uniform      = Config{Name: "Uniform", Threads: 4, PerThread: 4, Writes: []int{4, 4, 4, 4}}
	Skewed       = Config{Name: "Skewed", Threads: 4, PerThread: 4, Writes: []int{2, 2, 6, 6}}
	UniformReads = Config{Name: "Uniform", Threads: 4, PerThread: 4, Writes: []int{2, 2, 2, 2}, Reads: []int{2, 2, 2, 2}}
	SkewedReads  = Config{Name: "Skewed", Threads: 4, PerThread: 4, Writes: []int{1, 1, 3, 3}, Reads: []int{1, 1, 3, 3}}
)

// Generate returns the program of c drawn with seed: the pool of c's accesses
// (object by object, writes before reads) is shuffled, and entry i of the pool
// becomes event i, that is event i%PerThread of thread i/PerThread.
func Generate(c Config, seed uint64) (*Program, error) {
	type access struct {
		obj  int
		read bool
	}
	var pool []access
	for o, n := range c.Writes {
		for range n {
			pool = append(pool, access{o, false})
		}
		if o < len(c.Reads) {
			for range c.Reads[o] {
				pool = append(pool, access{o, true})
			}
		}
	}
	if len(pool) != c.Threads*c.PerThread {
		return nil, fmt.Errorf("micro: config %s has %d accesses for %d×%d events", c.Name, len(pool), c.Threads, c.PerThread)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d6963726f)) // "micro"
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	events := make([]Event, len(pool))
	for i, a := range pool {
		events[i] = Event{Thread: i / c.PerThread, Obj: a.obj, Read: a.read, After: -1}
	}
	return NewProgram(c.Name, events)
}

// Suite returns the benchmark's ten programs: five Uniform then five Skewed,
// all-writes or, with reads, the 50%-read variant. Program k is drawn with a
// seed derived from seed and k.
func Suite(reads bool, seed uint64) ([]*Program, error) {
	u, s := Uniform, Skewed
	if reads {
		u, s = UniformReads, SkewedReads
	}
	var out []*Program
	for k := range 10 {
		c := u
		if k >= 5 {
			c = s
		}
		p, err := Generate(c, mix(seed, uint64(k)))
		if err != nil {
			return nil, err
		}
		p.Name = fmt.Sprintf("%s-%d", c.Name, k%5+1)
		out = append(out, p)
	}
	return out, nil
}

// mix derives a seed from two words (SplitMix64's finaliser).
func mix(a, b uint64) uint64 {
	z := a ^ (b+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
