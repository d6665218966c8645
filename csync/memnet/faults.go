package memnet

import (
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Faults makes the iteration's connections misbehave as a real network
// does, within the guarantees of TCP: bytes are never lost, duplicated or
// reordered within a connection, but they may be late, the connection may
// break, and a dial may be refused. Every fault is a controlled choice:
// strategies explore when it strikes, and a trace replays it.
type Faults struct {
	// Delay is the probability that a Write's bytes stay in flight: they
	// reach the peer at a later step of the strategy's choosing, and later
	// Writes queue behind them.
	Delay float64
	// Reset is the probability that a Write breaks the connection instead:
	// both sides' Reads and Writes then fail with syscall.ECONNRESET.
	Reset float64
	// Refuse is the probability that a Dial to a listening address fails
	// with syscall.ECONNREFUSED.
	Refuse float64
	// MaxDelays, MaxResets and MaxRefusals bound each fault per iteration
	// (0: no bound).
	MaxDelays, MaxResets, MaxRefusals int
}

// SetFaults sets the faults of the calling iteration's network.
func SetFaults(f Faults) {
	_, r := ctl.Self("memnet.SetFaults")
	n := current(r)
	n.faults, n.faulty = f, true
}

// faultResolution is the denominator of a fault's probability: a fate is one
// controlled choice among this many values.
const faultResolution = 1000

// fault is what happens to one Write or Dial.
type fault uint8

const (
	noFault fault = iota
	delayed
	reset
	refused
)

// decide draws the fate of a Write (dial false) or a Dial: one controlled
// choice, made only while some fault can still strike.
func (n *network) decide(t *core.Task, r *core.Run, dial bool, pc uintptr) fault {
	if !n.faulty {
		return noFault
	}
	f := &n.faults
	type band struct {
		p    float64
		max  int
		used *int
		is   fault
	}
	bands := []band{{f.Delay, f.MaxDelays, &n.delays, delayed}, {f.Reset, f.MaxResets, &n.resets, reset}}
	if dial {
		bands = []band{{f.Refuse, f.MaxRefusals, &n.refusals, refused}}
	}
	live := false
	for _, b := range bands {
		live = live || b.p > 0 && (b.max == 0 || *b.used < b.max)
	}
	if !live {
		return noFault
	}
	v := float64(r.Choose(t, faultResolution, pc)) / faultResolution
	lo := 0.0
	for _, b := range bands {
		if v >= lo && v < lo+b.p && (b.max == 0 || *b.used < b.max) {
			*b.used++
			return b.is
		}
		lo += b.p
	}
	return noFault
}

// hold keeps b in flight on p until a delivery step the strategy picks; the
// pipe's in-flight chunks arrive in the order they were written.
func (p *pipe) hold(t *core.Task, r *core.Run, b []byte, pc uintptr) {
	p.inflight = append(p.inflight, append([]byte(nil), b...))
	r.SpawnTimer(t, "net", trace.KindDeliver, r.Now(), pc, func(*core.Task) {
		ev := r.Event()
		ev.Res, ev.Val = p.res, trace.ValNone
		if len(p.inflight) == 0 { // reset since
			return
		}
		p.buf = append(p.buf, p.inflight[0]...)
		p.inflight = p.inflight[1:]
		p.q.WakeAll(r)
	})
}
