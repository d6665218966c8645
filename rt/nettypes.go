package rt

import (
	"io"
	"net"
	"net/netip"
	"os"
	"syscall"
	"time"

	"github.com/morpheus-go/morpheus/csync/memnet"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// The functions of package net that return concrete types (ListenTCP's
// *net.TCPListener, DialTCP's *net.TCPConn, ListenUDP's and DialUDP's
// *net.UDPConn) stand for them with interfaces that have the same
// methods: the rewriter replaces such a call only where the variable it
// declares is used as these interfaces allow (its methods called, or
// handed where an interface it satisfies is expected), and lists the other
// calls. *net.TCPListener's AcceptTCP is left out: its result is concrete.

// TCPListener stands for *net.TCPListener.
type TCPListener interface {
	net.Listener
	SetDeadline(t time.Time) error
	File() (*os.File, error)
	SyscallConn() (syscall.RawConn, error)
}

// TCPConn stands for *net.TCPConn.
type TCPConn interface {
	net.Conn
	io.ReaderFrom
	io.WriterTo
	CloseRead() error
	CloseWrite() error
	SetKeepAlive(keepalive bool) error
	SetKeepAlivePeriod(d time.Duration) error
	SetKeepAliveConfig(config net.KeepAliveConfig) error
	SetLinger(sec int) error
	SetNoDelay(noDelay bool) error
	SetReadBuffer(bytes int) error
	SetWriteBuffer(bytes int) error
	MultipathTCP() (bool, error)
	File() (*os.File, error)
	SyscallConn() (syscall.RawConn, error)
}

// UDPConn stands for *net.UDPConn.
type UDPConn interface {
	net.Conn
	net.PacketConn
	ReadFromUDP(b []byte) (int, *net.UDPAddr, error)
	ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error)
	ReadMsgUDP(b, oob []byte) (n, oobn, flags int, addr *net.UDPAddr, err error)
	ReadMsgUDPAddrPort(b, oob []byte) (n, oobn, flags int, addr netip.AddrPort, err error)
	WriteToUDP(b []byte, addr *net.UDPAddr) (int, error)
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
	WriteMsgUDP(b, oob []byte, addr *net.UDPAddr) (n, oobn int, err error)
	WriteMsgUDPAddrPort(b, oob []byte, addr netip.AddrPort) (n, oobn int, err error)
	SetReadBuffer(bytes int) error
	SetWriteBuffer(bytes int) error
	File() (*os.File, error)
	SyscallConn() (syscall.RawConn, error)
}

var (
	_ TCPListener = (*net.TCPListener)(nil)
	_ TCPConn     = (*net.TCPConn)(nil)
	_ TCPConn     = (*memnet.Conn)(nil)
	_ UDPConn     = (*net.UDPConn)(nil)
	_ UDPConn     = (*memnet.PacketConn)(nil)
)

// ListenTCP stands for net.ListenTCP; a nil laddr is port 0 of this
// machine.
//
//go:noinline
func ListenTCP(network string, laddr *net.TCPAddr) (TCPListener, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		l, err := net.ListenTCP(network, laddr)
		if err != nil {
			return nil, err
		}
		return l, nil
	}
	if network != "tcp" && network != "tcp4" && network != "tcp6" {
		return nil, &net.OpError{Op: "listen", Net: network, Err: net.UnknownNetworkError(network)}
	}
	l, err := listenAt(network, tcpString(laddr), pc)
	if err != nil {
		return nil, err
	}
	return l.(TCPListener), nil
}

// DialTCP stands for net.DialTCP; laddr is not used (the dialing side's
// port is the schedule's next).
//
//go:noinline
func DialTCP(network string, laddr, raddr *net.TCPAddr) (TCPConn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		c, err := net.DialTCP(network, laddr, raddr)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	if network != "tcp" && network != "tcp4" && network != "tcp6" {
		return nil, &net.OpError{Op: "dial", Net: network, Err: net.UnknownNetworkError(network)}
	}
	if raddr == nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errMissingAddress}
	}
	c, err := dialAt(network, raddr.String(), pc)
	if err != nil {
		return nil, err
	}
	return c.(TCPConn), nil
}

// ListenUDP stands for net.ListenUDP; a nil laddr is port 0 of this
// machine.
//
//go:noinline
func ListenUDP(network string, laddr *net.UDPAddr) (UDPConn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		c, err := net.ListenUDP(network, laddr)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	if network != "udp" && network != "udp4" && network != "udp6" {
		return nil, &net.OpError{Op: "listen", Net: network, Err: net.UnknownNetworkError(network)}
	}
	address := ":0"
	if laddr != nil {
		address = laddr.String()
	}
	c, err := bindPacketAt(network, address, pc)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// DialUDP stands for net.DialUDP: an endpoint connected to raddr, bound to
// laddr if given.
//
//go:noinline
func DialUDP(network string, laddr, raddr *net.UDPAddr) (UDPConn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		c, err := net.DialUDP(network, laddr, raddr)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	if network != "udp" && network != "udp4" && network != "udp6" {
		return nil, &net.OpError{Op: "dial", Net: network, Err: net.UnknownNetworkError(network)}
	}
	if raddr == nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errMissingAddress}
	}
	peer, err := parseAddr("dial", network, raddr.String(), packetNets)
	if err != nil {
		return nil, err
	}
	var local *addr
	if laddr != nil {
		if local, err = parseAddr("dial", network, laddr.String(), packetNets); err != nil {
			return nil, err
		}
	}
	c, err := dialPacket(network, local, peer, pc)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// tcpString is a TCP address as Listen takes it; nil is port 0.
func tcpString(a *net.TCPAddr) string {
	if a == nil {
		return ":0"
	}
	return a.String()
}

// errMissingAddress is package net's error of a dial without an address.
var errMissingAddress = &net.AddrError{Err: "missing address"}
