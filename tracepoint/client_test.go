package tracepoint_test

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/server"
	"github.com/morpheus-go/morpheus/tracepoint"
)

func TestHitWithoutSocketIsNoop(t *testing.T) {
	if os.Getenv(tracepoint.EnvSocket) != "" {
		t.Skip("MORPHEUS_SOCKET is set")
	}
	if err := tracepoint.Hit("anything", "k=v"); err != nil {
		t.Fatal(err)
	}
	if cl, err := tracepoint.Default(); cl != nil || err != nil {
		t.Fatalf("Default = %v, %v", cl, err)
	}
}

func startServer(t *testing.T, cfg server.Config) *server.Server {
	t.Helper()
	s, err := server.Start(filepath.Join(t.TempDir(), "s"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}

func TestClientHits(t *testing.T) {
	s := startServer(t, server.Config{})
	cl, err := tracepoint.Connect(s.Socket(), "p1")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range [][]string{{"a"}, {"b", "to=p2", "n=1"}, {"a"}} {
		if err := cl.Hit(h[0], h[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	cl.Close()
	if err := cl.Hit("late"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("hit after Close: %v", err)
	}
	res := s.Stop()
	if want := []string{"p1:a#0", "p1:b{n=1,to=p2}#0", "p1:a#1"}; !reflect.DeepEqual(res.Trace, want) {
		t.Fatalf("trace %v, want %v", res.Trace, want)
	}
}

func TestBadNames(t *testing.T) {
	if _, err := tracepoint.Connect("/nonexistent", "bad name"); err == nil || !strings.Contains(err.Error(), "process name") {
		t.Fatalf("bad process name: %v", err)
	}
	s := startServer(t, server.Config{})
	cl, err := tracepoint.Connect(s.Socket(), "p")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, c := range [][]string{{"a b"}, {"x", "novalue"}, {""}} {
		if err := cl.Hit(c[0], c[1:]...); err == nil {
			t.Errorf("Hit(%q) accepted", c)
		}
	}
	if err := cl.Hit("fine"); err != nil {
		t.Fatalf("a good hit after bad ones: %v", err)
	}
}

// TestConcurrentHitsUseSeparateConnections: while one goroutine is held,
// another passes. The held hit must reach the server before the other one
// for the test to show anything; the server's count of held hits says
// whether it did, and a machine too slow for that within the pause gets
// another try with a pause twice as long.
func TestConcurrentHitsUseSeparateConnections(t *testing.T) {
	for pause := 20 * time.Millisecond; ; pause *= 2 {
		if concurrentHits(t, pause) {
			return
		}
		if pause > 5*time.Second {
			t.Fatalf("p:first never reached the server within %v", pause)
		}
		t.Logf("p:first reached the server after p:second, with a pause of %v; again", pause)
	}
}

// concurrentHits hits p:first, held until p:second, and after pause
// p:second on the same client; it reports whether p:first was held.
func concurrentHits(t *testing.T, pause time.Duration) bool {
	// The time-out bounds a broken client (sharing one connection, the
	// second hit would wait behind the held first), well above the pause.
	s := startServer(t, server.Config{Constraints: []server.Constraint{{First: "p:second#0", Then: "p:first#0"}}, Timeout: time.Minute})
	cl, err := tracepoint.Connect(s.Socket(), "p")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := cl.Hit("first"); err != nil {
			t.Error(err)
		}
	}()
	time.Sleep(pause)
	if err := cl.Hit("second"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	res := s.Stop()
	if !reflect.DeepEqual(res.Trace, []string{"p:second#0", "p:first#0"}) {
		t.Fatalf("trace %v", res.Trace)
	}
	return res.Held == 1
}

func TestServerErrors(t *testing.T) {
	if _, err := tracepoint.Connect(filepath.Join(t.TempDir(), "none"), "p"); err == nil {
		t.Fatal("connected to nothing")
	}
	// A server that answers nonsense.
	path := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		r.ReadString('\n') // hello
		r.ReadString('\n') // hit
		c.Write([]byte("ok 2\n"))
	}()
	cl, err := tracepoint.Connect(path, "p")
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.Hit("x"); err == nil || !strings.Contains(err.Error(), `server answered "ok 2", expected "ok 1"`) {
		t.Fatalf("nonsense reply: %v", err)
	}
}
