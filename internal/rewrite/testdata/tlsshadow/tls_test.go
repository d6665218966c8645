package tlsshadow

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func get(t *testing.T, c *http.Client, url string) string {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

// TestServeTLS serves the counter over HTTPS and asks it twice.
func TestServeTLS(t *testing.T) {
	srv := httptest.NewTLSServer(&Counter{})
	defer srv.Close()
	c := srv.Client()
	if got := get(t, c, srv.URL); got != "1 HTTP/1.1" {
		t.Fatalf("first request: %q", got)
	}
	if got := get(t, c, srv.URL); got != "2 HTTP/1.1" {
		t.Fatalf("second request: %q", got)
	}
}

// TestHTTP2 serves the counter over HTTPS with HTTP/2, asked from two
// goroutines at once on one connection.
func TestHTTP2(t *testing.T) {
	srv := httptest.NewUnstartedServer(&Counter{})
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	c := srv.Client()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := get(t, c, srv.URL); !strings.HasSuffix(got, " HTTP/2.0") {
				t.Errorf("got %q", got)
			}
		}()
	}
	wg.Wait()
}

// TestRacyTLS asks the unlocked counter over HTTPS from two goroutines at
// once: their handlers race on its count.
func TestRacyTLS(t *testing.T) {
	srv := httptest.NewTLSServer(&Racy{})
	defer srv.Close()
	c := srv.Client()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get(t, c, srv.URL)
		}()
	}
	wg.Wait()
}

// TestEcho dials the echo server with tls.Dial; while the handshake runs,
// another goroutine asks for the connection's state (which waits for it),
// and two goroutines write lines at once; the last closes the connection
// while the reader waits.
func TestEcho(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil) // for its certificate
	srv.StartTLS()
	srv.Close()
	l, err := Listen(srv.TLS)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go Echo(l)
	conn, err := tls.Dial("tcp", l.Addr().String(), srv.Client().Transport.(*http.Transport).TLSClientConfig)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		if st := conn.ConnectionState(); !st.HandshakeComplete {
			t.Error("state before the handshake completed")
		}
	}()
	for _, line := range []string{"a", "b"} {
		go func() {
			defer wg.Done()
			if _, err := io.WriteString(conn, line+"\n"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	r := bufio.NewReader(conn)
	var got []string
	for range 2 {
		s, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if strings.Join(got, "") != "a\nb\n" && strings.Join(got, "") != "b\na\n" {
		t.Errorf("echoed %q", got)
	}
	done := make(chan error)
	go func() {
		_, err := r.ReadString('\n')
		done <- err
	}()
	conn.Close()
	if err := <-done; err == nil {
		t.Error("read after close")
	}
}

// TestHandshakeTimeout dials a server that accepts but never answers: the
// handshake ends at its context's deadline, on the schedule's clock.
func TestHandshakeTimeout(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	raw, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	err = tls.Client(raw, &tls.Config{InsecureSkipVerify: true}).HandshakeContext(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("handshake: %v", err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("handshake ended after %v", d)
	}
}

// TestHandshake runs one handshake over a connection of package net and
// nothing else: both sides agree on what was negotiated.
func TestHandshake(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil) // for its certificate
	srv.StartTLS()
	srv.Close()
	a, b := net.Pipe()
	server := tls.Server(a, srv.TLS)
	done := make(chan error, 1)
	go func() { done <- server.Handshake() }()
	cfg := srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	cfg.ServerName = "example.com" // httptest's certificate names it
	client := tls.Client(b, cfg)
	if err := client.Handshake(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if c, s := client.ConnectionState(), server.ConnectionState(); c.Version != s.Version || c.CipherSuite != s.CipherSuite {
		t.Errorf("client %x %x, server %x %x", c.Version, c.CipherSuite, s.Version, s.CipherSuite)
	}
}

// TestDialerValue sends through the package's Transport, whose dialer is
// a method value of a net.Dialer set up as the package initialized.
func TestDialerValue(t *testing.T) {
	srv := httptest.NewTLSServer(&Counter{})
	defer srv.Close()
	defer Transport.CloseIdleConnections()
	if got := get(t, &http.Client{Transport: Transport}, srv.URL); got != "1 HTTP/1.1" {
		t.Errorf("got %q", got)
	}
}

// TestPipe serves lines streamed through a pipe over HTTPS.
func TestPipe(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := Lines(3)
		defer rc.Close()
		io.Copy(w, rc)
	}))
	defer srv.Close()
	if got := get(t, srv.Client(), srv.URL); got != "line 0\nline 1\nline 2\n" {
		t.Errorf("got %q", got)
	}
}
