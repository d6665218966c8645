package netshapes

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// ListenTCP and DialTimeout meet on one network: the listener's address
// names its network ("tcp") and dials back, under control.
func TestListenTCPDialTimeout(t *testing.T) {
	l, err := net.ListenTCP("tcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go Echo(l)
	c, err := net.DialTimeout(l.Addr().Network(), l.Addr().String(), 10*time.Second)
	if err != nil {
		t.Fatalf("dial %s: %v", l.Addr(), err)
	}
	defer c.Close()
	if got, err := Roundtrip(c, "hello"); got != "hello" || err != nil {
		t.Fatalf("echo: %q, %v", got, err)
	}
	if port := l.Addr().(*net.TCPAddr).Port; port == 0 {
		t.Fatalf("port %d", port)
	}
}

// A UDP echo under control: packets carry their sender's address.
func TestUDPEcho(t *testing.T) {
	srv, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	go func() {
		buf := make([]byte, 512)
		for {
			n, from, err := srv.ReadFrom(buf)
			if err != nil {
				return
			}
			srv.WriteTo(buf[:n], from)
		}
	}()
	raddr := srv.LocalAddr().(*net.UDPAddr)
	c, err := net.DialUDP("udp", nil, raddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("ping"))
	buf := make([]byte, 512)
	n, from, err := c.ReadFromUDP(buf)
	if err != nil || string(buf[:n]) != "ping" || from.Port != raddr.Port {
		t.Fatalf("echo: %q from %v, %v", buf[:n], from, err)
	}
}

// A dial to a port nobody listens on is refused, and a listen on a port in
// use fails, as on a real machine.
func TestRefusedAndInUse(t *testing.T) {
	var d net.Dialer
	dial := d.DialContext // a method value, as http.Transport takes it
	if _, err := dial(context.Background(), "tcp", "127.0.0.1:1"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial of a port nobody listens on: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var lc net.ListenConfig
	if _, err := lc.Listen(context.Background(), "tcp", l.Addr().String()); !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("listen on a port in use: %v", err)
	}
}

// httptest's server and http.Get serve and dial on goroutines of the
// standard library's: the test runs on the real network.
func TestHTTPGet(t *testing.T) {
	s := httptest.NewServer(Hello)
	defer s.Close()
	resp, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); string(b) != "hello" {
		t.Fatalf("body %q", b)
	}
}

// A Dialer's method value in an http.Transport dials where the server
// listens: on the real network, with the rest of the test.
func TestTransportDialer(t *testing.T) {
	s := httptest.NewServer(Hello)
	defer s.Close()
	d := &net.Dialer{Timeout: 5 * time.Second}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	resp, err := client.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// A listener kept as *net.TCPListener is real, so the dial of the same
// test is real too: one network, never split.
func TestConcreteListener(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.L.Close()
	c, err := net.DialTimeout("tcp", s.L.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := Roundtrip(c, "hi"); got != "hi" || err != nil {
		t.Fatalf("echo: %q, %v", got, err)
	}
}

// A test on the real network that fails reports its own output.
func TestRealFails(t *testing.T) {
	s := httptest.NewServer(Hello)
	defer s.Close()
	t.Errorf("served at %s, failing on purpose", "httptest")
}

// net.Pipe is in memory and synchronous: under control.
func TestNetPipe(t *testing.T) {
	a, b := net.Pipe()
	go func() {
		defer b.Close()
		io.Copy(b, b)
	}()
	if got, err := Roundtrip(a, "piped"); got != "piped" || err != nil {
		t.Fatalf("echo: %q, %v", got, err)
	}
	a.Close()
}

// io.Pipe's ends block on the standard library's own channels: the test
// runs as go test runs it.
func TestIOPipe(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		io.WriteString(w, "piped")
		w.Close()
	}()
	if b, err := io.ReadAll(r); string(b) != "piped" || err != nil {
		t.Fatalf("read %q, %v", b, err)
	}
}

// shared listens while the package initializes, outside control: on the
// real network, so a test that uses it is on the real network too.
var shared, _ = net.Listen("tcp", "127.0.0.1:0")

func TestSharedListener(t *testing.T) {
	go Echo(shared)
	c, err := net.Dial("tcp", shared.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := Roundtrip(c, "shared"); got != "shared" || err != nil {
		t.Fatalf("echo: %q, %v", got, err)
	}
}

func TestAssertedListener(t *testing.T) {
	s, err := NewStream("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.L.Close()
	c, err := net.Dial("tcp", s.L.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := Roundtrip(c, "asserted"); got != "asserted" || err != nil {
		t.Fatalf("echo: %q, %v", got, err)
	}
}
