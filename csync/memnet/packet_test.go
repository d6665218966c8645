package memnet_test

import (
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/csync/memnet"
)

// keyOf names addresses by their text: the tests' addresses are canonical.
func keyOf(a net.Addr) (string, error) { return a.String(), nil }

type addr string

func (a addr) Network() string { return "test" }
func (a addr) String() string  { return string(a) }

// Packets from one sender keep their order and their sender's address; a
// connected endpoint hears only its peer; a packet to nobody is dropped;
// an address in use cannot be bound twice.
func TestPackets(t *testing.T) {
	pass(t, run(t, 100, func(e *morpheus.Env) {
		srv, err := memnet.ListenPacket("s", addr("s"), keyOf, 0)
		e.Assert(err == nil, "listen: %v", err)
		_, err = memnet.ListenPacket("s", addr("s"), keyOf, 0)
		e.Assert(errors.Is(err, syscall.EADDRINUSE), "second bind: %v", err)
		c, _ := memnet.DialPacket("c", addr("c"), keyOf, "s", addr("s"), 0)
		other, _ := memnet.ListenPacket("o", addr("o"), keyOf, 0)
		done := csync.Make[string](1)
		csync.Go(func() {
			buf := make([]byte, 8)
			var got []string
			for range 2 {
				n, from, err := srv.ReadFrom(buf)
				e.Assert(err == nil && from.String() == "c", "read from %v: %v", from, err)
				got = append(got, string(buf[:n]))
			}
			srv.WriteTo([]byte("reply"), addr("c"))
			done.Send(strings.Join(got, ","))
		})
		c.Write([]byte("one"))
		c.Write([]byte("two"))
		other.WriteTo([]byte("stray"), addr("c")) // not c's peer: dropped
		other.WriteTo([]byte("lost"), addr("nobody"))
		e.Assert(done.Recv() == "one,two", "order")
		buf := make([]byte, 8)
		n, err := c.Read(buf)
		e.Assert(err == nil && string(buf[:n]) == "reply", "c read %q, %v", buf[:n], err)
		srv.Close()
		_, _, err = srv.ReadFrom(buf)
		e.Assert(errors.Is(err, net.ErrClosed), "read after close: %v", err)
	}))
}

// A Pipe's Write nobody reads is a deadlock that names the pipe.
func TestPipeBlockedWrite(t *testing.T) {
	res := run(t, 3, func(e *morpheus.Env) {
		a, _ := memnet.Pipe(0)
		a.Write([]byte("x"))
	})
	if f := res.Failure; f == nil || f.Kind != "deadlock" || !strings.Contains(f.Message, "blocked in net-write on pipe#") {
		t.Fatalf("failure %v", f)
	}
}
