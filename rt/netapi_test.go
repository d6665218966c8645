package rt_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// ListenTCP and DialTimeout meet on the one in-memory network (a split
// network never connected them): the listener's address is a *net.TCPAddr
// whose Network is "tcp", which dials back.
func TestListenTCPDialTimeout(t *testing.T) {
	f := explore(t, 30, func() {
		l, err := rt.ListenTCP("tcp", nil)
		if err != nil {
			panic(err)
		}
		ta, ok := l.Addr().(*net.TCPAddr)
		if !ok || ta.Port != 32768 || l.Addr().Network() != "tcp" {
			panic("listener address " + l.Addr().String())
		}
		got := rt.Make[chan string](1)
		rt.Go(func() {
			c, err := l.Accept()
			if err != nil {
				panic(err)
			}
			if c.LocalAddr().String() != "127.0.0.1:32768" || c.RemoteAddr().String() != "127.0.0.1:49152" {
				panic("server side's addresses " + c.LocalAddr().String() + " " + c.RemoteAddr().String())
			}
			b, _ := io.ReadAll(c)
			rt.Send(got, string(b))
		})
		c, err := rt.DialTimeout(l.Addr().Network(), l.Addr().String(), 10*time.Second)
		if err != nil {
			panic(err)
		}
		tc, err := rt.DialTCP("tcp", nil, ta)
		if err != nil {
			panic(err)
		}
		tc.SetNoDelay(true)
		tc.CloseWrite()
		c.Write([]byte("hi"))
		c.Close()
		if s := rt.Recv(got); s != "hi" {
			panic("read " + s)
		}
		if s, err := l.Accept(); err != nil || s.RemoteAddr().String() != "127.0.0.1:49153" {
			panic("DialTCP's connection: " + errString(err))
		}
		l.SetDeadline(rt.Now().Add(time.Second))
		if _, err := l.Accept(); !errors.Is(err, os.ErrDeadlineExceeded) {
			panic("accept past its deadline: " + errString(err))
		}
	})
	if f != nil {
		t.Fatal(f.Report())
	}
}

// A dial nobody listens to is refused and a listen on a port in use
// fails, as on a real machine; a context already done fails a dial.
func TestNetRefusedInUse(t *testing.T) {
	f := explore(t, 5, func() {
		if _, err := rt.DialTCP("tcp", nil, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4000}); !errors.Is(err, syscall.ECONNREFUSED) {
			panic("dial: " + errString(err))
		}
		l, err := rt.Listen("tcp", "127.0.0.1:4000")
		if err != nil {
			panic(err)
		}
		defer l.Close()
		var lc net.ListenConfig
		if _, err := rt.ListenConfigListen(&lc, context.Background(), "tcp", "localhost:4000"); !errors.Is(err, syscall.EADDRINUSE) {
			panic("second listen: " + errString(err))
		}
		p, err := rt.ListenPacket("udp", ":5000")
		if err != nil {
			panic(err)
		}
		defer p.Close()
		if _, err := rt.ListenUDP("udp", &net.UDPAddr{Port: 5000}); !errors.Is(err, syscall.EADDRINUSE) {
			panic("second udp listen: " + errString(err))
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var d net.Dialer
		if _, err := rt.DialContextValue(&d)(ctx, "tcp", "127.0.0.1:4000"); !errors.Is(err, context.Canceled) {
			panic("dial with a done context: " + errString(err))
		}
	})
	if f != nil {
		t.Fatal(f.Report())
	}
}

// A UDP echo: packets carry their sender's address, a connected endpoint
// writes to its peer, and a packet to an address nobody is bound to is
// dropped.
func TestUDPEcho(t *testing.T) {
	f := explore(t, 50, func() {
		srv, err := rt.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		rt.Go(func() {
			buf := make([]byte, 64)
			for {
				n, from, err := srv.ReadFrom(buf)
				if err != nil {
					return
				}
				srv.WriteTo(buf[:n], from)
			}
		})
		var d net.Dialer
		c, err := rt.DialerDialValue(&d)("udp", srv.LocalAddr().String())
		if err != nil {
			panic(err)
		}
		if _, ok := c.LocalAddr().(*net.UDPAddr); !ok {
			panic("local address " + c.LocalAddr().String())
		}
		c.Write([]byte("ping"))
		buf := make([]byte, 2) // shorter than the packet: the rest is lost
		n, err := c.Read(buf)
		if err != nil || string(buf[:n]) != "pi" {
			panic("read " + string(buf[:n]) + " " + errString(err))
		}
		u, err := rt.DialUDP("udp", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9})
		if err != nil {
			panic(err)
		}
		if _, err := u.Write([]byte("nobody")); err != nil {
			panic("a write to nobody: " + err.Error())
		}
		u.SetReadDeadline(rt.Now().Add(time.Millisecond))
		if _, _, err := u.ReadFromUDP(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
			panic("read with nobody to answer: " + errString(err))
		}
		srv.Close()
	})
	if f != nil {
		t.Fatal(f.Report())
	}
}

// net.Pipe is synchronous: a Write returns once the other end has read
// all of it; writes take turns; a close ends both directions.
func TestPipe(t *testing.T) {
	f := explore(t, 200, func() {
		a, b := rt.Pipe()
		read := rt.Make[chan string](2)
		rt.Go(func() {
			buf := make([]byte, 3)
			for {
				n, err := b.Read(buf)
				if err != nil {
					rt.Close(read)
					return
				}
				rt.Send(read, string(buf[:n]))
			}
		})
		if n, err := a.Write([]byte("hello")); n != 5 || err != nil {
			panic("write: " + errString(err))
		}
		a.Close()
		if got := rt.Recv(read) + rt.Recv(read); got != "hello" {
			panic("read " + got)
		}
		if _, ok := rt.RecvOK(read); ok {
			panic("read after the close")
		}
		if _, err := a.Write([]byte("x")); err != io.ErrClosedPipe {
			panic("write after close: " + errString(err))
		}
		// Nobody reads: the Write waits until its deadline.
		c, _ := rt.Pipe()
		start := rt.Now()
		c.SetWriteDeadline(start.Add(time.Second))
		// The writer wakes past its deadline, as on a real machine.
		if n, err := c.Write([]byte("x")); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
			panic("unread write: " + errString(err))
		}
		if d := rt.Since(start); d <= time.Second || d > time.Second+time.Millisecond {
			panic(fmt.Sprintf("the unread write waited %v, want just past 1s", d))
		}
	})
	if f != nil {
		t.Fatal(f.Report())
	}
}

// A dial of a host name nobody listens on fails as a name no resolver
// knows does on a real machine ("lookup HOST: no such host", a
// *net.DNSError), an address's as refused; a name a listener took is
// dialed.
func TestDialUnknownHost(t *testing.T) {
	f := explore(t, 5, func() {
		_, err := rt.Dial("tcp", "999.999.999.999:999")
		var dns *net.DNSError
		if !errors.As(err, &dns) || !dns.IsNotFound || err.Error() != "dial tcp: lookup 999.999.999.999: no such host" {
			panic(fmt.Sprintf("dial of an unknown name: %v", err))
		}
		if _, err := rt.Dial("tcp", "127.0.0.1:999"); !errors.Is(err, syscall.ECONNREFUSED) {
			panic(fmt.Sprintf("dial of a closed port: %v", err))
		}
		l, err := rt.Listen("tcp", "db.internal:5432")
		if err != nil {
			panic(err)
		}
		defer l.Close()
		rt.Go(func() {
			if c, err := l.Accept(); err == nil {
				c.Close()
			}
		})
		c, err := rt.Dial("tcp", "db.internal:5432")
		if err != nil {
			panic(err)
		}
		c.Close()
	})
	if f != nil {
		t.Fatal(f)
	}
}
