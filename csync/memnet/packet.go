package memnet

import (
	"fmt"
	"net"
	"os"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// PacketConn is a datagram endpoint of the in-memory network, as a UDP
// socket on one machine: WriteTo sends one packet to an address, ReadFrom
// receives one with its sender's address. Packets from one sender arrive in
// the order sent; a packet to an address nobody is bound to is dropped, as
// UDP drops it; a Read with a buffer shorter than the packet gets its first
// bytes and the rest is lost. A connected endpoint (DialPacket) sends to
// its peer with Write and receives only its peer's packets. WriteTo,
// ReadFrom, Read, Write and Close are ops.
type PacketConn struct {
	net      *network
	key      string   // the address in the network's table of endpoints
	addr     net.Addr // what LocalAddr returns
	peer     string   // the connected peer's key, "" if not connected
	peerAddr net.Addr
	keyOf    func(net.Addr) (string, error) // the key of a WriteTo's address
	res      uint32
	site     uintptr
	inbox    []packet
	closed   bool
	rdl, wdl int64     // deadlines in virtual ns, 0: none
	q        ctl.Queue // blocked reads
}

type packet struct {
	data []byte
	from string // the sender's key
	addr net.Addr
}

type packetOn PacketConn

func (p *packetOn) String() string {
	return fmt.Sprintf("packet conn %s#%d created at %s", p.addr, p.res, core.Where(p.site))
}

// ListenPacket binds a datagram endpoint to key on the iteration's network,
// showing addr as its LocalAddr; keyOf names the endpoint a WriteTo's
// address is (how hosts and ports are written is the caller's business).
// It fails with syscall.EADDRINUSE if another endpoint has key.
func ListenPacket(key string, addr net.Addr, keyOf func(net.Addr) (string, error), pc uintptr) (*PacketConn, error) {
	return bindPacket(key, addr, keyOf, "", nil, pc)
}

// DialPacket binds a datagram endpoint to key, connected to the endpoint
// bound to peer (shown as peerAddr): its Write sends there, and its Read
// receives only packets from there. It never fails for want of a peer, as
// a UDP dial does not.
func DialPacket(key string, addr net.Addr, keyOf func(net.Addr) (string, error), peer string, peerAddr net.Addr, pc uintptr) (*PacketConn, error) {
	return bindPacket(key, addr, keyOf, peer, peerAddr, pc)
}

func bindPacket(key string, addr net.Addr, keyOf func(net.Addr) (string, error), peer string, peerAddr net.Addr, pc uintptr) (*PacketConn, error) {
	t, r := ctl.Self("memnet.ListenPacket")
	n := current(r)
	kind := trace.KindNetListen
	if peer != "" {
		kind = trace.KindNetDial
	}
	r.Do(t, core.Op{Kind: kind, Res: n.res, Obj: -1, PC: pc})
	op := "listen"
	if peer != "" {
		op = "dial"
		r.Event().Val = trace.ValNone
	}
	if _, ok := n.packets[key]; ok {
		return nil, opError(op, addr, errAddrInUse)
	}
	c := &PacketConn{net: n, key: key, addr: addr, keyOf: keyOf, peer: peer, peerAddr: peerAddr, res: r.NewResource(), site: pc}
	n.packets[key] = c
	return c, nil
}

// ReadFrom receives a packet, waiting for one (see Conn.Read for deadlines).
//
//go:noinline
func (c *PacketConn) ReadFrom(b []byte) (int, net.Addr, error) {
	return c.readAt(b, goruntime.CallerPC())
}

// Read receives a packet from the connected peer.
//
//go:noinline
func (c *PacketConn) Read(b []byte) (int, error) {
	n, _, err := c.readAt(b, goruntime.CallerPC())
	return n, err
}

// ReadAt is ReadFrom with the op located at pc.
func (c *PacketConn) ReadAt(b []byte, pc uintptr) (int, net.Addr, error) { return c.readAt(b, pc) }

func (c *PacketConn) readAt(b []byte, pc uintptr) (int, net.Addr, error) {
	t, r := ctl.Self("PacketConn.ReadFrom")
	for {
		op := core.Op{Kind: trace.KindNetRead, Res: c.res, Obj: -1, PC: pc}
		if c.rdl != 0 {
			op.HasDeadline, op.Deadline = true, c.rdl
		}
		if len(c.inbox) == 0 && !c.closed && (c.rdl == 0 || r.Now() < c.rdl) {
			c.q.Push(t)
			op.Blocked, op.On = true, (*packetOn)(c)
		}
		timedOut := r.Do(t, op)
		c.q.Remove(t)
		switch {
		case c.closed:
			r.Event().Val = trace.ValNone
			return 0, nil, opError("read", c.addr, net.ErrClosed)
		case len(c.inbox) > 0:
			p := c.inbox[0]
			c.inbox[0] = packet{}
			c.inbox = c.inbox[1:]
			r.Event().Val = int64(len(p.data))
			return copy(b, p.data), p.addr, nil
		case timedOut || c.rdl != 0 && r.Now() >= c.rdl:
			ev := r.Event()
			ev.Val, ev.Flag = trace.ValNone, ev.Flag|trace.FlagTimeout
			return 0, nil, opError("read", c.addr, os.ErrDeadlineExceeded)
		}
		r.Event().Val = trace.ValNone
	}
}

// WriteTo sends b as one packet to addr; it never blocks.
//
//go:noinline
func (c *PacketConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	return c.WriteToAt(b, addr, goruntime.CallerPC())
}

// WriteToAt is WriteTo with the op located at pc.
func (c *PacketConn) WriteToAt(b []byte, addr net.Addr, pc uintptr) (int, error) {
	if addr == nil {
		ctl.Self("PacketConn.WriteTo")
		return 0, opError("write", c.addr, errMissingAddress)
	}
	key, err := c.keyOf(addr)
	if err != nil {
		ctl.Self("PacketConn.WriteTo")
		return 0, opError("write", c.addr, err)
	}
	return c.send(b, key, pc)
}

// send sends b as one packet to the endpoint bound to key.
func (c *PacketConn) send(b []byte, key string, pc uintptr) (int, error) {
	t, r := ctl.Self("PacketConn.WriteTo")
	to := c.net.packets[key]
	res := c.res
	if to != nil {
		res = to.res
	}
	r.Do(t, core.Op{Kind: trace.KindNetWrite, Res: res, Obj: -1, PC: pc})
	switch {
	case c.closed:
		return 0, opError("write", c.addr, net.ErrClosed)
	case c.wdl != 0 && r.Now() >= c.wdl:
		return 0, opError("write", c.addr, os.ErrDeadlineExceeded)
	}
	to = c.net.packets[key]
	if to == nil || to.closed || to.peer != "" && to.peer != c.key {
		return len(b), nil // dropped, as UDP drops it
	}
	to.inbox = append(to.inbox, packet{data: append([]byte(nil), b...), from: c.key, addr: c.addr})
	to.q.WakeOne(r)
	return len(b), nil
}

// Write sends b to the connected peer.
//
//go:noinline
func (c *PacketConn) Write(b []byte) (int, error) {
	pc := goruntime.CallerPC()
	if c.peer == "" {
		ctl.Self("PacketConn.Write")
		return 0, opError("write", c.addr, errNotConnected)
	}
	return c.send(b, c.peer, pc)
}

// Close unbinds the endpoint: blocked and later reads fail with
// net.ErrClosed, and packets sent to its address are dropped.
//
//go:noinline
func (c *PacketConn) Close() error { return c.CloseAt(goruntime.CallerPC()) }

// CloseAt is Close with the op located at pc.
func (c *PacketConn) CloseAt(pc uintptr) error {
	t, r := ctl.Self("PacketConn.Close")
	r.Do(t, core.Op{Kind: trace.KindNetClose, Res: c.res, Obj: -1, PC: pc})
	if c.closed {
		return opError("close", c.addr, net.ErrClosed)
	}
	c.closed = true
	c.inbox = nil
	if c.net.packets[c.key] == c {
		delete(c.net.packets, c.key)
	}
	c.q.WakeAll(r)
	return nil
}

// LocalAddr returns the endpoint's address.
func (c *PacketConn) LocalAddr() net.Addr { return c.addr }

// RemoteAddr returns the connected peer's address, nil if not connected.
func (c *PacketConn) RemoteAddr() net.Addr {
	if c.peer == "" {
		return nil
	}
	return c.peerAddr
}

// SetDeadline sets both deadlines.
func (c *PacketConn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

// SetReadDeadline sets the virtual time after which reads fail with
// os.ErrDeadlineExceeded; a read blocked now takes the new deadline.
func (c *PacketConn) SetReadDeadline(t time.Time) error {
	_, r := ctl.Self("PacketConn.SetReadDeadline")
	c.rdl = virtual(r, t)
	c.q.WakeAll(r)
	return nil
}

// SetWriteDeadline sets the virtual time after which writes fail.
func (c *PacketConn) SetWriteDeadline(t time.Time) error {
	_, r := ctl.Self("PacketConn.SetWriteDeadline")
	c.wdl = virtual(r, t)
	return nil
}
