package memnet_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/csync/memnet"
)

// The echo server and client are ordinary Go over package net's interfaces:
// they run on real TCP and, unchanged, under morpheus on memnet. Only how
// goroutines start is passed in (go, or csync.Go).

// serveEcho answers each line of each connection with the same line, until
// the listener is closed.
func serveEcho(l net.Listener, goFunc func(func())) error {
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		goFunc(func() {
			defer c.Close()
			rd := bufio.NewReader(c)
			for {
				line, err := rd.ReadString('\n')
				if err != nil {
					return
				}
				if _, err := io.WriteString(c, line); err != nil {
					return
				}
			}
		})
	}
}

// echoClient sends lines and checks that each comes back.
func echoClient(dial func(string) (net.Conn, error), addr string, lines ...string) error {
	c, err := dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	rd := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	for _, l := range lines {
		fmt.Fprintf(w, "%s\n", l)
		if err := w.Flush(); err != nil {
			return err
		}
		got, err := rd.ReadString('\n')
		if err != nil {
			return err
		}
		if got != l+"\n" {
			return fmt.Errorf("sent %q, got %q", l, got)
		}
	}
	return nil
}

func TestEchoRealTCP(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback:", err)
	}
	go serveEcho(l, func(f func()) { go f() })
	defer l.Close()
	tcp := func(addr string) (net.Conn, error) { return net.Dial("tcp", addr) }
	if err := echoClient(tcp, l.Addr().String(), "hello", "world"); err != nil {
		t.Fatal(err)
	}
}

func TestEchoMemnet(t *testing.T) {
	for _, s := range []string{"random", "pos*", "pct:3"} {
		res, err := morpheus.Explore(func(e *morpheus.Env) {
			l, err := memnet.Listen("echo:7")
			e.Assert(err == nil, "listen: %v", err)
			stopped := csync.Make[error](1)
			csync.Go(func() { stopped.Send(serveEcho(l, csync.Go)) })
			var wg csync.WaitGroup
			for i := range 2 {
				wg.Go(func() {
					err := echoClient(memnet.Dial, "echo:7", fmt.Sprint("hello ", i), strings.Repeat("x", 5000))
					e.Assert(err == nil, "client %d: %v", i, err)
				})
			}
			wg.Wait()
			l.Close()
			err = stopped.Recv()
			e.Assert(errors.Is(err, net.ErrClosed), "server stopped with %v", err)
		}, morpheus.Iterations(300), morpheus.Strategy(s), morpheus.Name(t.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if res.Failure != nil {
			t.Fatalf("%s:\n%s", s, res.Failure.Report())
		}
	}
}
