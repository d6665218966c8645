package strategy

// POSStar is POS with priority reassignment, POS* (thesis §3.4, Algorithm 4):
// as POS, but after an op e runs, every enabled op that conflicts with e
// loses its priority and draws a fresh one the next time it is considered
// (and so does e's task, whose next op is new).
//
// An op delayed by a conflict thus competes afresh instead of carrying the low
// priority that delayed it, which removes the "propagated comparison" of
// priorities along chains of delays: POS* samples every partial order with
// probability at least (1/n)^k · r^u for n tasks and k ops, exponentially
// better than random walk when few ops conflict (thesis Theorem 3.6). It
// benefits from fine-grained independence: reads of the same resource do not
// conflict.
//
// The reads-blind variant (NewPOSStarNoReads, "pos*-noreads") treats every
// pair of ops on the same resource as conflicting, reads included; it exists
// to measure what read-read independence buys (thesis Table 3.2, "POS*-").
type POSStar struct {
	posPri
	localFirst
	noReads bool
}

// NewPOSStar returns POS*.
func NewPOSStar() *POSStar {
	p := &POSStar{}
	p.init()
	return p
}

// NewPOSStarNoReads returns POS* that ignores read flags when deciding which
// ops conflict.
func NewPOSStarNoReads() *POSStar {
	p := NewPOSStar()
	p.noReads = true
	return p
}

func (p *POSStar) Name() string {
	if p.noReads {
		return "pos*-noreads"
	}
	return "pos*"
}

func (p *POSStar) Next(enabled []Op) int {
	if i := firstLocal(enabled); i >= 0 {
		return i
	}
	best := p.pick(enabled)
	e := &enabled[best]
	for i := range enabled {
		o := &enabled[i]
		if i == best || o.Res != 0 && o.Res == e.Res && (p.noReads || !(o.Read && e.Read)) {
			p.pri[o.Task] = posUnset
		}
	}
	return best
}
