package memnet

import (
	"net"
	"net/netip"
	"os"
	"syscall"

	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// A PacketConn has every method of *net.UDPConn, so that code written for
// one runs on it: out-of-band data is never received and is dropped when
// sent, buffer sizes change nothing, and File and SyscallConn fail.

// ReadFromUDP is ReadFrom with the sender as a *net.UDPAddr (nil if the
// sender's address is not one).
//
//go:noinline
func (c *PacketConn) ReadFromUDP(b []byte) (int, *net.UDPAddr, error) {
	n, a, err := c.readAt(b, goruntime.CallerPC())
	u, _ := a.(*net.UDPAddr)
	return n, u, err
}

// ReadFromUDPAddrPort is ReadFrom with the sender as a netip.AddrPort.
//
//go:noinline
func (c *PacketConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	n, a, err := c.readAt(b, goruntime.CallerPC())
	return n, addrPort(a), err
}

// ReadMsgUDP is ReadFromUDP with no out-of-band data.
//
//go:noinline
func (c *PacketConn) ReadMsgUDP(b, oob []byte) (n, oobn, flags int, addr *net.UDPAddr, err error) {
	n, a, err := c.readAt(b, goruntime.CallerPC())
	addr, _ = a.(*net.UDPAddr)
	return n, 0, 0, addr, err
}

// ReadMsgUDPAddrPort is ReadFromUDPAddrPort with no out-of-band data.
//
//go:noinline
func (c *PacketConn) ReadMsgUDPAddrPort(b, oob []byte) (n, oobn, flags int, addr netip.AddrPort, err error) {
	n, a, err := c.readAt(b, goruntime.CallerPC())
	return n, 0, 0, addrPort(a), err
}

// WriteToUDP is WriteTo.
//
//go:noinline
func (c *PacketConn) WriteToUDP(b []byte, addr *net.UDPAddr) (int, error) {
	if addr == nil {
		return c.WriteToAt(b, nil, goruntime.CallerPC())
	}
	return c.WriteToAt(b, addr, goruntime.CallerPC())
}

// WriteToUDPAddrPort is WriteTo an address given as a netip.AddrPort.
//
//go:noinline
func (c *PacketConn) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	return c.WriteToAt(b, net.UDPAddrFromAddrPort(addr), goruntime.CallerPC())
}

// WriteMsgUDP is WriteToUDP, or Write if addr is nil; oob is dropped.
//
//go:noinline
func (c *PacketConn) WriteMsgUDP(b, oob []byte, addr *net.UDPAddr) (n, oobn int, err error) {
	pc := goruntime.CallerPC()
	if addr == nil && c.peer != "" {
		n, err = c.send(b, c.peer, pc)
	} else if addr == nil {
		n, err = c.WriteToAt(b, nil, pc)
	} else {
		n, err = c.WriteToAt(b, addr, pc)
	}
	return n, len(oob), err
}

// WriteMsgUDPAddrPort is WriteMsgUDP to a netip.AddrPort.
//
//go:noinline
func (c *PacketConn) WriteMsgUDPAddrPort(b, oob []byte, addr netip.AddrPort) (n, oobn int, err error) {
	n, err = c.WriteToAt(b, net.UDPAddrFromAddrPort(addr), goruntime.CallerPC())
	return n, len(oob), err
}

// SetReadBuffer does nothing: buffers are unbounded.
func (c *PacketConn) SetReadBuffer(int) error { return nil }

// SetWriteBuffer does nothing.
func (c *PacketConn) SetWriteBuffer(int) error { return nil }

// File fails: there is no socket.
func (c *PacketConn) File() (*os.File, error) { return nil, opError("file", c.addr, errNoSocket) }

// SyscallConn fails: there is no socket.
func (c *PacketConn) SyscallConn() (syscall.RawConn, error) { return nil, errNoSocket }

func addrPort(a net.Addr) netip.AddrPort {
	if u, ok := a.(*net.UDPAddr); ok {
		return u.AddrPort()
	}
	return netip.AddrPort{}
}
