package server

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/proto"
)

// Constraint asks that event Then not pass before event First has passed.
// Events are keys as made by proto.Key.
type Constraint struct{ First, Then string }

// Outcome is what became of a constraint in a run.
type Outcome int

// Constraint outcomes.
const (
	NotReached Outcome = iota // Then never arrived
	Satisfied                 // Then passed after First (held or not)
	TimedOut                  // Then was held until Config.Timeout and then let go
)

func (o Outcome) String() string {
	return [...]string{"not reached", "satisfied", "timed out"}[o]
}

// Config is the policy of one run.
type Config struct {
	Constraints []Constraint
	Timeout     time.Duration // how long a held Then waits for its First; default 200ms
	Random      bool          // POS-style random delays instead of constraints
	Seed        uint64        // seed of the random priorities
	Quiet       time.Duration // random mode: release the top hit after this much silence; default 300µs
}

// Result is what a run's server saw.
type Result struct {
	Trace     []string  // event keys in release order
	Arrivals  []string  // event keys in order of arrival (held hits whose client left included)
	Outcomes  []Outcome // per Config.Constraints
	Holds     []Hold    // hits held for constraints, in order of arrival
	Held      int       // hits held at least once
	Dropped   int       // hits whose client left while they were held
	Processes int       // hellos received
	// ProtocolErrors lists the first few protocol errors (bad lines, cut lines).
	ProtocolErrors []string
	ProtocolCount  int
}

// Hold is a hit the server held for constraints (a Then whose First had not
// passed). Arrivals[From] is the held hit; Arrivals[From+1:To] are the hits
// that arrived while it was held. A hold released by the time-out (TimedOut)
// shows what the held event starves: the events that arrived only after it
// was let go (Arrivals[To:]) did not arrive in a whole time-out without it.
// To is 0 while the hit is held, and stays 0 when its client left meanwhile.
type Hold struct {
	Event    string
	From, To int
	TimedOut bool
}

// Server serves one run.
type Server struct {
	cfg  Config
	ln   *net.UnixListener
	done chan struct{}
	wg   sync.WaitGroup

	mu      sync.Mutex
	stopped bool
	conns   map[net.Conn]struct{}
	counts  map[string]int           // occurrences per PROCESS:NAME{...}
	passed  map[string]bool          // events of interest (constraint Firsts) that passed
	waiters map[string]chan struct{} // closed when that First passes
	res     Result

	rng   *rand.Rand
	pool  []*pooled
	timer *time.Timer
}

type pooled struct {
	pri     float64
	release chan struct{}
}

// Start listens on the Unix socket path and serves until Stop.
func Start(path string, cfg Config) (*Server, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 200 * time.Millisecond
	}
	if cfg.Quiet <= 0 {
		cfg.Quiet = 300 * time.Microsecond
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("ordering server: %w", err)
	}
	s := &Server{
		cfg: cfg, ln: ln, done: make(chan struct{}),
		conns:   map[net.Conn]struct{}{},
		counts:  map[string]int{},
		passed:  map[string]bool{},
		waiters: map[string]chan struct{}{},
		rng:     rand.New(rand.NewPCG(cfg.Seed, 0x6d6f7270)),
	}
	s.res.Outcomes = make([]Outcome, len(cfg.Constraints))
	for _, c := range cfg.Constraints {
		if _, ok := s.waiters[c.First]; !ok {
			s.waiters[c.First] = make(chan struct{})
		}
	}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Socket is the path the server listens on.
func (s *Server) Socket() string { return s.ln.Addr().String() }

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.stopped {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(c)
	}
}

// Stop closes the listener and every connection, waits for the handlers and
// returns the run's result. Hits still held are dropped.
func (s *Server) Stop() Result {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		s.wg.Wait()
		return s.res
	}
	s.stopped = true
	close(s.done)
	s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return s.res
}

func (s *Server) protocolError(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.res.ProtocolCount++
	if len(s.res.ProtocolErrors) < 8 {
		s.res.ProtocolErrors = append(s.res.ProtocolErrors, err.Error())
	}
}

// arrive names the event of a hit and decides how it waits: a list of
// channels to wait for (constraints) with the index of its Hold (-1 if it is
// not held for constraints), or a pool entry (random mode).
func (s *Server) arrive(proc string, m proto.Msg) (key string, waits []chan struct{}, cons []int, hold int, p *pooled) {
	base := proto.Key(proc, m.Name, m.Attrs, 0)
	base = base[:len(base)-2] // without "#0"
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.counts[base]
	s.counts[base] = n + 1
	key = proto.Key(proc, m.Name, m.Attrs, n)
	from := len(s.res.Arrivals)
	s.res.Arrivals = append(s.res.Arrivals, key)
	for i, c := range s.cfg.Constraints {
		if c.Then != key {
			continue
		}
		cons = append(cons, i)
		if !s.passed[c.First] {
			waits = append(waits, s.waiters[c.First])
		}
	}
	hold = -1
	if len(waits) > 0 {
		s.res.Held++
		hold = len(s.res.Holds)
		s.res.Holds = append(s.res.Holds, Hold{Event: key, From: from})
	}
	if s.cfg.Random {
		p = &pooled{pri: s.rng.Float64(), release: make(chan struct{})}
		s.pool = append(s.pool, p)
		s.res.Held++
		s.armLocked()
	}
	return key, waits, cons, hold, p
}

// armLocked (re)starts the quiet timer of the random pool.
func (s *Server) armLocked() {
	if s.timer == nil {
		s.timer = time.AfterFunc(s.cfg.Quiet, s.releaseTop)
		return
	}
	s.timer.Reset(s.cfg.Quiet)
}

// releaseTop releases the pool's highest-priority hit.
func (s *Server) releaseTop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || len(s.pool) == 0 {
		return
	}
	best := 0
	for i, p := range s.pool {
		if p.pri > s.pool[best].pri {
			best = i
		}
	}
	close(s.pool[best].release)
	s.pool = append(s.pool[:best], s.pool[best+1:]...)
	if len(s.pool) > 0 {
		s.armLocked()
	}
}

// unpool removes p from the pool (its client left).
func (s *Server) unpool(p *pooled) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, q := range s.pool {
		if q == p {
			s.pool = append(s.pool[:i], s.pool[i+1:]...)
			return
		}
	}
}

// pass records event key as passed, now; hold is its Hold's index, or -1.
func (s *Server) pass(key string, cons []int, hold int, timedOut bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.res.Trace = append(s.res.Trace, key)
	if hold >= 0 {
		h := &s.res.Holds[hold]
		h.To, h.TimedOut = len(s.res.Arrivals), timedOut
	}
	for _, i := range cons {
		switch {
		case s.passed[s.cfg.Constraints[i].First]:
			s.res.Outcomes[i] = Satisfied
		case timedOut:
			s.res.Outcomes[i] = TimedOut
		}
	}
	if ch, ok := s.waiters[key]; ok && !s.passed[key] {
		s.passed[key] = true
		close(ch)
	}
}

func (s *Server) drop() {
	s.mu.Lock()
	s.res.Dropped++
	s.mu.Unlock()
}

var errGone = errors.New("client left")
