package memnet_test

import (
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/csync/memnet"
)

func run(t *testing.T, n int, test func(e *morpheus.Env)) *morpheus.Result {
	t.Helper()
	res, err := morpheus.Explore(test, morpheus.Iterations(n), morpheus.Name(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func pass(t *testing.T, res *morpheus.Result) {
	t.Helper()
	if res.Failure != nil {
		t.Fatalf("unexpected failure:\n%s", res.Failure.Report())
	}
}

func TestRefusedAndAddrInUse(t *testing.T) {
	pass(t, run(t, 5, func(e *morpheus.Env) {
		_, err := memnet.Dial("nobody:1")
		e.Assert(errors.Is(err, syscall.ECONNREFUSED) && strings.Contains(err.Error(), "connection refused"), "dial: %v", err)
		l, err := memnet.Listen("a:1")
		e.Assert(err == nil && l.Addr().String() == "a:1" && l.Addr().Network() == "memnet", "listen: %v", err)
		_, err = memnet.Listen("a:1")
		e.Assert(errors.Is(err, syscall.EADDRINUSE), "second listen: %v", err)
		l.Close()
		_, err = memnet.DialTimeout("a:1", time.Second)
		e.Assert(errors.Is(err, syscall.ECONNREFUSED), "dial after close: %v", err)
		_, err = memnet.Listen("a:1")
		e.Assert(err == nil, "listen again: %v", err)
	}))
}

// A read past its deadline fails with a time-out once the virtual time the
// deadline allowed has passed (a nanosecond past it, as a task that a
// deadline woke reads the clock); data that can still arrive always wins.
func TestReadDeadline(t *testing.T) {
	pass(t, run(t, 100, func(e *morpheus.Env) {
		l, _ := memnet.Listen("s:1")
		csync.Go(func() {
			c, _ := l.Accept()
			c.Write([]byte("hi"))
		})
		c, err := memnet.Dial("s:1")
		e.Assert(err == nil, "dial: %v", err)
		start := csync.Now()
		c.SetReadDeadline(start.Add(time.Second))
		buf := make([]byte, 10)
		n, err := c.Read(buf)
		e.Assert(err == nil && string(buf[:n]) == "hi", "read %q %v", buf[:n], err)
		n, err = c.Read(buf)
		var ne net.Error
		e.Assert(n == 0 && errors.Is(err, os.ErrDeadlineExceeded) && errors.As(err, &ne) && ne.Timeout(), "read: %d %v", n, err)
		e.Assert(csync.Since(start) == time.Second+time.Nanosecond, "timed out after %v", csync.Since(start))
		c.SetReadDeadline(time.Time{})
		c.SetWriteDeadline(start) // already past
		_, err = c.Write([]byte("x"))
		e.Assert(errors.Is(err, os.ErrDeadlineExceeded), "write: %v", err)
	}))
}

// The peer's close is io.EOF after the bytes sent before it; this side's
// close fails its own reads and writes; writes to a closed peer fail.
func TestCloseSemantics(t *testing.T) {
	pass(t, run(t, 200, func(e *morpheus.Env) {
		l, _ := memnet.Listen("s:1")
		done := csync.Make[int](0)
		csync.Go(func() {
			c, _ := l.Accept()
			c.Write([]byte("bye"))
			c.Close()
			done.Send(1)
		})
		c, _ := memnet.Dial("s:1")
		b, err := io.ReadAll(c)
		e.Assert(err == nil && string(b) == "bye", "ReadAll %q %v", b, err)
		done.Recv()
		_, err = c.Write([]byte("x"))
		e.Assert(errors.Is(err, syscall.EPIPE), "write to a closed peer: %v", err)
		c.Close()
		_, err = c.Read(b)
		e.Assert(errors.Is(err, net.ErrClosed), "read after close: %v", err)
		e.Assert(errors.Is(c.Close(), net.ErrClosed), "second close")
		e.Assert(c.LocalAddr().String() == "client:1" && c.RemoteAddr().String() == "s:1", "addrs %v %v", c.LocalAddr(), c.RemoteAddr())
	}))
}

// A server that never answers is a deadlock that names the connection.
func TestBlockedReadReport(t *testing.T) {
	res := run(t, 3, func(e *morpheus.Env) {
		l, _ := memnet.Listen("s:1")
		csync.Go(func() { l.Accept() })
		c, _ := memnet.Dial("s:1")
		c.Read(make([]byte, 1))
	})
	f := res.Failure
	if f == nil || f.Kind != "deadlock" || !strings.Contains(f.Message, "main: blocked in net-read on conn s:1→client:1#") {
		t.Fatalf("failure %v", f)
	}
	res = run(t, 3, func(e *morpheus.Env) {
		l, _ := memnet.Listen("s:2")
		l.Accept()
	})
	if f := res.Failure; f == nil || !strings.Contains(f.Message, "main: blocked in net-accept on listener s:2#") {
		t.Fatalf("failure %v", f)
	}
}

// Each iteration has its own network, also with parallel workers.
func TestNetworkPerIteration(t *testing.T) {
	res, err := morpheus.Explore(func(e *morpheus.Env) {
		_, err := memnet.Listen("same:1")
		e.Assert(err == nil, "listen: %v", err)
	}, morpheus.Iterations(200), morpheus.Workers(4), morpheus.Name(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	pass(t, res)
}
