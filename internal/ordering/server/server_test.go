package server

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/tracepoint"
)

func start(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := Start(filepath.Join(t.TempDir(), "s"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}

func client(t *testing.T, s *Server, proc string) *tracepoint.Client {
	t.Helper()
	c, err := tracepoint.Connect(s.Socket(), proc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func hit(t *testing.T, c *tracepoint.Client, name string, attrs ...string) {
	t.Helper()
	if err := c.Hit(name, attrs...); err != nil {
		t.Fatal(err)
	}
}

func TestBaselineRecordsTrace(t *testing.T) {
	s := start(t, Config{})
	a, b := client(t, s, "a"), client(t, s, "b")
	hit(t, a, "x")
	hit(t, b, "y", "to=a")
	hit(t, a, "x")
	res := s.Stop()
	want := []string{"a:x#0", "b:y{to=a}#0", "a:x#1"}
	if !reflect.DeepEqual(res.Trace, want) {
		t.Fatalf("trace %v, want %v", res.Trace, want)
	}
	if res.Processes != 2 || res.Held != 0 {
		t.Fatalf("result %+v", res)
	}
}

func TestConstraintHoldsThenUntilFirst(t *testing.T) {
	// The time-out only bounds a broken server: b:y must pass by a:x.
	s := start(t, Config{Constraints: []Constraint{{First: "a:x#0", Then: "b:y#0"}}, Timeout: time.Minute})
	a, b := client(t, s, "a"), client(t, s, "b")
	done := make(chan error)
	go func() { done <- b.Hit("y") }()
	// Once the server holds b:y (however long its hit takes to arrive),
	// it stays held until a:x.
	waitFor(t, "b:y held", func() bool { return s.held() == 1 })
	select {
	case err := <-done:
		t.Fatalf("b:y passed before a:x (err %v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	hit(t, a, "x")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	res := s.Stop()
	if want := []string{"a:x#0", "b:y#0"}; !reflect.DeepEqual(res.Trace, want) {
		t.Fatalf("trace %v, want %v", res.Trace, want)
	}
	if res.Outcomes[0] != Satisfied || res.Held != 1 {
		t.Fatalf("outcome %v, held %d", res.Outcomes[0], res.Held)
	}
}

func TestConstraintAlreadySatisfiedDoesNotHold(t *testing.T) {
	s := start(t, Config{Constraints: []Constraint{{First: "a:x#0", Then: "b:y#0"}, {First: "a:z#0", Then: "b:w#0"}}})
	a, b := client(t, s, "a"), client(t, s, "b")
	hit(t, a, "x")
	hit(t, b, "y")
	res := s.Stop()
	if res.Held != 0 || res.Outcomes[0] != Satisfied || res.Outcomes[1] != NotReached {
		t.Fatalf("result %+v", res)
	}
}

func TestInfeasibleConstraintTimesOut(t *testing.T) {
	s := start(t, Config{Constraints: []Constraint{{First: "a:never#0", Then: "b:y#0"}}, Timeout: 30 * time.Millisecond})
	b := client(t, s, "b")
	hit(t, b, "y")
	hit(t, b, "y")
	res := s.Stop()
	if res.Outcomes[0] != TimedOut {
		t.Fatalf("outcome %v, want timed out", res.Outcomes[0])
	}
	if want := []string{"b:y#0", "b:y#1"}; !reflect.DeepEqual(res.Trace, want) {
		t.Fatalf("trace %v", res.Trace)
	}
}

// TestHoldsRecordArrivals: a hold says which hits arrived while it was held
// and whether the time-out let it go; hits that are not held have no hold.
func TestHoldsRecordArrivals(t *testing.T) {
	tests := []struct {
		name         string
		cons         []Constraint
		timeout      time.Duration
		run          func(t *testing.T, s *Server, a, b *tracepoint.Client)
		wantArrivals []string
		wantHolds    []Hold
	}{
		{
			name: "released by its First",
			cons: []Constraint{{First: "a:x#0", Then: "b:y#0"}},
			// The time-out only bounds a broken server.
			timeout: time.Minute,
			run: func(t *testing.T, s *Server, a, b *tracepoint.Client) {
				done := make(chan error)
				go func() { done <- b.Hit("y") }()
				waitFor(t, "b:y held", func() bool { return s.held() == 1 })
				hit(t, a, "w")
				hit(t, a, "x")
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				hit(t, b, "z")
			},
			wantArrivals: []string{"b:y#0", "a:w#0", "a:x#0", "b:z#0"},
			wantHolds:    []Hold{{Event: "b:y#0", From: 0, To: 3}},
		},
		{
			name: "let go by the time-out",
			cons: []Constraint{{First: "a:never#0", Then: "b:y#0"}},
			// Always expires: the length changes nothing but the test's time.
			timeout: 20 * time.Millisecond,
			run: func(t *testing.T, s *Server, a, b *tracepoint.Client) {
				hit(t, a, "w")
				hit(t, b, "y")
				hit(t, b, "z")
				hit(t, a, "w")
			},
			wantArrivals: []string{"a:w#0", "b:y#0", "b:z#0", "a:w#1"},
			wantHolds:    []Hold{{Event: "b:y#0", From: 1, To: 2, TimedOut: true}},
		},
		{
			name:         "nothing held",
			timeout:      time.Minute,
			run:          func(t *testing.T, s *Server, a, b *tracepoint.Client) { hit(t, b, "y"); hit(t, a, "x") },
			wantArrivals: []string{"b:y#0", "a:x#0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, Config{Constraints: tt.cons, Timeout: tt.timeout})
			a, b := client(t, s, "a"), client(t, s, "b")
			tt.run(t, s, a, b)
			res := s.Stop()
			if !reflect.DeepEqual(res.Arrivals, tt.wantArrivals) || !reflect.DeepEqual(res.Holds, tt.wantHolds) {
				t.Fatalf("arrivals %v, holds %+v; want %v, %+v", res.Arrivals, res.Holds, tt.wantArrivals, tt.wantHolds)
			}
		})
	}
}

func TestRandomModeReleasesEveryHit(t *testing.T) {
	for seed := uint64(0); seed < 5; seed++ {
		s := start(t, Config{Random: true, Seed: seed, Quiet: 100 * time.Microsecond})
		errs := make(chan error, 3)
		for _, p := range []string{"a", "b", "c"} {
			c := client(t, s, p)
			go func() {
				for i := 0; i < 3; i++ {
					if err := c.Hit("step"); err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for i := 0; i < 3; i++ {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if res := s.Stop(); len(res.Trace) != 9 || res.Held != 9 {
			t.Fatalf("seed %d: %+v", seed, res)
		}
	}
}

// rawConn is a client that speaks the protocol by hand, to misbehave.
type rawConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func raw(t *testing.T, s *Server) *rawConn {
	c, err := net.Dial("unix", s.Socket())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t, c, bufio.NewReader(c)}
}

func (r *rawConn) send(s string) { r.c.Write([]byte(s)) }

func (r *rawConn) expect(prefix string) {
	r.t.Helper()
	r.c.SetReadDeadline(time.Now().Add(time.Minute)) // bounds a wedged server, not a pace
	line, err := r.r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, prefix) {
		r.t.Fatalf("read %q, %v; want prefix %q", line, err, prefix)
	}
}

// TestMisbehavingClientsNeverWedge ends clients at every protocol stage and
// checks that a healthy client is served throughout and Stop returns.
func TestMisbehavingClientsNeverWedge(t *testing.T) {
	s := start(t, Config{Constraints: []Constraint{{First: "good:never#0", Then: "bad:held#0"}, {First: "good:never#0", Then: "bad:held#1"}}, Timeout: time.Hour})
	good := client(t, s, "good")
	stages := []struct {
		name string
		do   func(r *rawConn)
	}{
		{"silent, then closed", func(r *rawConn) {}},
		{"mid-line before hello", func(r *rawConn) { r.send("hel") }},
		{"garbage", func(r *rawConn) { r.send("\x00\xff junk\n"); r.expect("err bad line") }},
		{"hit before hello", func(r *rawConn) { r.send("hit x\n"); r.expect("err hit before hello") }},
		{"too long", func(r *rawConn) { r.send(strings.Repeat("x", 10000) + "\n"); r.expect("err line longer") }},
		{"after hello", func(r *rawConn) { r.send("hello 1 bad\n"); r.expect("ok 1") }},
		{"mid-line after hello", func(r *rawConn) { r.send("hello 1 bad\nhit par"); r.expect("ok 1") }},
		{"bad hit", func(r *rawConn) { r.send("hello 1 bad\nhit a:b\n"); r.expect("ok 1"); r.expect("err bad line") }},
		{"second hello", func(r *rawConn) { r.send("hello 1 bad\nhello 1 bad\n"); r.expect("ok 1"); r.expect("err second hello") }},
		{"while held", func(r *rawConn) { r.send("hello 1 bad\nhit held\n"); r.expect("ok 1") }},
		{"line while held", func(r *rawConn) { r.send("hello 1 bad\nhit held\n"); r.expect("ok 1"); r.send("hit other\n") }},
	}
	for i, st := range stages {
		r := raw(t, s)
		st.do(r)
		r.c.Close()
		// The healthy client is served after every stage.
		if err := good.Hit("tick"); err != nil {
			t.Fatalf("stage %d %q: healthy client: %v", i, st.name, err)
		}
	}
	// The 2 clients that left while held are dropped once their handlers
	// see them go, which may come after the healthy client's ticks.
	waitFor(t, "2 held hits dropped", func() bool { return s.dropped() == 2 })
	// A client left hanging mid-line forever does not block Stop either.
	hang := raw(t, s)
	hang.send("hello 1 hang\nhit x")
	stopped := make(chan Result)
	go func() { stopped <- s.Stop() }()
	select {
	case res := <-stopped:
		if len(res.Trace) != len(stages) {
			t.Fatalf("trace %v, want %d ticks", res.Trace, len(stages))
		}
		if res.Dropped != 2 || res.ProtocolCount < 5 {
			t.Fatalf("dropped %d, protocol errors %d (%v)", res.Dropped, res.ProtocolCount, res.ProtocolErrors)
		}
	case <-time.After(time.Minute):
		t.Fatal("Stop wedged")
	}
}

// TestKilledProcessesNeverWedge kills real client processes (this test
// binary re-run as a helper) at every protocol stage with SIGKILL: connected
// but silent, mid-line before the hello, after the hello, mid-line after it,
// and while a hit is held. After each kill a healthy client is served, and
// the held hit is dropped from the trace.
func TestKilledProcessesNeverWedge(t *testing.T) {
	s := start(t, Config{Constraints: []Constraint{{First: "x:never#0", Then: "victim:held#0"}}, Timeout: time.Hour})
	good := client(t, s, "good")
	for _, stage := range []string{"silent", "mid-hello", "after-hello", "mid-hit", "held"} {
		ready := filepath.Join(t.TempDir(), "ready")
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperClient$")
		cmd.Env = append(os.Environ(), "MORPHEUS_SERVER_HELPER="+stage, "HELPER_READY="+ready,
			tracepoint.EnvSocket+"="+s.Socket(), tracepoint.EnvProcess+"=victim", "GORACE=atexit_sleep_ms=0")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, stage+": helper ready", func() bool {
			_, err := os.Stat(ready)
			return err == nil
		}, func() { cmd.Process.Kill() })
		if stage == "held" {
			waitFor(t, "the victim's hit held", func() bool { return s.held() > 0 }, func() { cmd.Process.Kill() })
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if err := good.Hit("tick"); err != nil {
			t.Fatalf("after killing a client %s: %v", stage, err)
		}
	}
	waitFor(t, "the killed client's held hit dropped", func() bool { return s.dropped() > 0 })
	res := s.Stop()
	for _, k := range res.Trace {
		if strings.HasPrefix(k, "victim:") {
			t.Fatalf("a killed client's hit is in the trace: %v", res.Trace)
		}
	}
	if len(res.Trace) != 5 || res.Dropped != 1 {
		t.Fatalf("trace %v, dropped %d", res.Trace, res.Dropped)
	}
}

// waitFor polls cond until it holds. The deadline only bounds a broken test
// (then onFail runs and the test fails): it is no pace, so that a slow
// machine passes too.
func waitFor(t *testing.T, what string, cond func() bool, onFail ...func()) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			for _, f := range onFail {
				f()
			}
			t.Fatalf("waited 2m for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (s *Server) held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.res.Held
}

func (s *Server) dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.res.Dropped
}

// TestHelperClient is the client process of TestKilledProcessesNeverWedge:
// it reaches its stage, says so in a file, and waits to be killed.
func TestHelperClient(t *testing.T) {
	stage := os.Getenv("MORPHEUS_SERVER_HELPER")
	if stage == "" {
		t.Skip("helper process")
	}
	ready := func() { os.WriteFile(os.Getenv("HELPER_READY"), nil, 0o644) }
	if stage == "held" {
		// Ready as the hit goes out: the test then waits for the server
		// to hold it.
		ready()
		tracepoint.Hit("held")
		os.Exit(0)
	}
	c, err := net.Dial("unix", os.Getenv(tracepoint.EnvSocket))
	if err != nil {
		t.Fatal(err)
	}
	switch stage {
	case "mid-hello":
		c.Write([]byte("hello 1 vic"))
	case "after-hello":
		c.Write([]byte("hello 1 victim\n"))
	case "mid-hit":
		c.Write([]byte("hello 1 victim\nhit hel"))
	}
	ready()
	select {}
}
