package rt

import (
	mrand "math/rand"
	"math/rand/v2"
	"reflect"
)

// randStreamQuick is the stream of the generator QuickConfig seeds
// testing/quick's generators from.
const randStreamQuick = 0x72616e71

// QuickConfig stands for the *quick.Config given to testing/quick's Check
// and CheckEqual. Given no generator (a nil config, or one whose Rand is
// nil), testing/quick seeds one from the real clock inside the standard
// library, where the rewriter does not reach: the values it tries, and so
// the schedule, would differ from run to run. In a schedule the config
// returned is a copy of c whose Rand is a generator seeded from the
// schedule's own seed (a stream of its own, one generator per call); the
// same seed, and a replay, try the same values. Outside control, and for
// a config with a generator of its own, c is returned as it is.
//
// The rewriter wraps the last argument of Check and CheckEqual:
// quick.Check(f, c) is quick.Check(f, rt.QuickConfig[quick.Config](c)).
func QuickConfig[C any](c *C) *C {
	g := gens()
	if g == nil {
		return c
	}
	var cfg C
	if c != nil {
		cfg = *c
	}
	r := reflect.ValueOf(&cfg).Elem().FieldByName("Rand")
	if !r.IsValid() || r.Type() != reflect.TypeFor[*mrand.Rand]() || !r.IsNil() {
		return c
	}
	if !g.quickSeeded {
		g.pcgQuick.Seed(g.seed, randStreamQuick)
		g.quickSeeded = true
	}
	p := rand.NewPCG(g.pcgQuick.Uint64(), randStreamQuick)
	r.Set(reflect.ValueOf(mrand.New(pcgSource{p})))
	return &cfg
}
