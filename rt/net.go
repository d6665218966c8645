package rt

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/morpheus-go/morpheus/csync/memnet"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// In rewritten code package net's functions that listen and dial reach the
// schedule's in-memory network (package csync/memnet) instead of the real
// one: Listen, ListenTCP, ListenPacket, ListenUDP, ListenConfig's Listen
// and ListenPacket, Dial, DialTimeout, DialTCP, DialUDP, and a Dialer's
// Dial and DialContext, called or handed out as values. Listen, Dial,
// Accept, Read, Write, ReadFrom, WriteTo and Close are ops, and each
// schedule starts with an empty network. Networks: "tcp", "tcp4", "tcp6"
// and "unix" are streams, "udp", "udp4", "udp6" and "unixgram" datagrams;
// another fails with an error that says so. A host that names this machine
// ("", "localhost", "0.0.0.0", "::", "127.0.0.1", "::1") is 127.0.0.1,
// port 0 in a listen is a free port numbered from 32768 in the order of
// the schedule's listens, and a dialer's own port is numbered from 49152.
// Addresses are package net's: *net.TCPAddr, *net.UDPAddr, *net.UnixAddr.
// Outside control (package initialization, TestMain, a test that runs on
// the real network) the real network is used.

// firstPort is the first port a listen hands out for port 0, and
// firstClientPort the first port of a dialing side.
const (
	firstPort       = 32768
	firstClientPort = 49152
)

// Dial stands for net.Dial.
//
//go:noinline
func Dial(network, address string) (net.Conn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return net.Dial(network, address)
	}
	return dialAt(network, address, pc)
}

// DialTimeout stands for net.DialTimeout: dialing the in-memory network
// never waits, so the time-out never expires.
//
//go:noinline
func DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return net.DialTimeout(network, address, timeout)
	}
	return dialAt(network, address, pc)
}

// DialerDial stands for d.Dial(network, address).
//
//go:noinline
func DialerDial(d *net.Dialer, network, address string) (net.Conn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return d.Dial(network, address)
	}
	return dialAt(network, address, pc)
}

// DialContext stands for d.DialContext(ctx, network, address): a context
// already done fails the dial with its error.
//
//go:noinline
func DialContext(d *net.Dialer, ctx context.Context, network, address string) (net.Conn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return d.DialContext(ctx, network, address)
	}
	return dialContextAt(ctx, network, address, pc)
}

// DialerDialValue stands for the method value d.Dial: the function dials
// the in-memory network when a controlled task calls it, the real one
// otherwise. Its dials are located where the value was taken.
//
//go:noinline
func DialerDialValue(d *net.Dialer) func(network, address string) (net.Conn, error) {
	pc := goruntime.CallerPC()
	return func(network, address string) (net.Conn, error) {
		if core.CurrentTask() == nil {
			return d.Dial(network, address)
		}
		return dialAt(network, address, pc)
	}
}

// DialContextValue stands for the method value d.DialContext, as
// DialerDialValue does for d.Dial.
//
//go:noinline
func DialContextValue(d *net.Dialer) func(ctx context.Context, network, address string) (net.Conn, error) {
	pc := goruntime.CallerPC()
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		if core.CurrentTask() == nil {
			return d.DialContext(ctx, network, address)
		}
		return dialContextAt(ctx, network, address, pc)
	}
}

func dialContextAt(ctx context.Context, network, address string, pc uintptr) (net.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}
	return dialAt(network, address, pc)
}

// Listen stands for net.Listen.
//
//go:noinline
func Listen(network, address string) (net.Listener, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return net.Listen(network, address)
	}
	return listenAt(network, address, pc)
}

// ListenConfigListen stands for lc.Listen(ctx, network, address): the
// configuration's Control and KeepAlive have no socket to act on.
//
//go:noinline
func ListenConfigListen(lc *net.ListenConfig, ctx context.Context, network, address string) (net.Listener, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return lc.Listen(ctx, network, address)
	}
	if err := ctx.Err(); err != nil {
		return nil, &net.OpError{Op: "listen", Net: network, Err: err}
	}
	return listenAt(network, address, pc)
}

func listenAt(network, address string, pc uintptr) (net.Listener, error) {
	a, err := parseAddr("listen", network, address, streamNets)
	if err != nil {
		return nil, err
	}
	a.freePort()
	return memnet.ListenNet(a.key(), a.netAddr(), pc)
}

func dialAt(network, address string, pc uintptr) (net.Conn, error) {
	a, err := parseAddr("dial", network, address, allNets)
	if err != nil {
		return nil, err
	}
	if isPacket(network) {
		c, err := dialPacket(network, nil, a, pc)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	c, err := memnet.DialNet(a.key(), a.client, pc)
	if err != nil {
		if !isUnix(network) && net.ParseIP(a.host) == nil {
			// Nobody listens on a host name here, and none resolves:
			// what a dial of a name no resolver knows fails with.
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: a.host, IsNotFound: true}}
		}
		return nil, err
	}
	return c, nil
}

// addr is an address of the in-memory network.
type addr struct {
	network string // as given: "tcp4", "udp", "unix", …
	host    string // canonical: "127.0.0.1" for this machine
	port    int
	path    string // unix and unixgram
	run     *runState
}

// The networks a function accepts.
var (
	streamNets = []string{"tcp", "tcp4", "tcp6", "unix"}
	packetNets = []string{"udp", "udp4", "udp6", "unixgram"}
	allNets    = append(append([]string(nil), streamNets...), packetNets...)
)

func isPacket(network string) bool {
	for _, n := range packetNets {
		if n == network {
			return true
		}
	}
	return false
}

func isUnix(network string) bool { return network == "unix" || network == "unixgram" }

// parseAddr reads address on network, for op ("listen", "dial").
func parseAddr(op, network, address string, nets []string) (*addr, error) {
	ok := false
	for _, n := range nets {
		ok = ok || n == network
	}
	if !ok {
		return nil, &net.OpError{Op: op, Net: network, Err: net.UnknownNetworkError(network + " (morpheus controls tcp, udp, unix and unixgram here)")}
	}
	a := &addr{network: network, run: state(core.CurrentTask().Run())}
	if isUnix(network) {
		a.path = address
		return a, nil
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, &net.OpError{Op: op, Net: network, Err: err}
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return nil, &net.OpError{Op: op, Net: network, Err: &net.AddrError{Err: "invalid port", Addr: address}}
	}
	a.host, a.port = canonHost(host), int(p)
	return a, nil
}

// canonHost returns the in-memory network's name of a host.
func canonHost(host string) string {
	switch host {
	case "", "localhost", "0.0.0.0", "::", "127.0.0.1", "::1":
		return "127.0.0.1"
	}
	return host
}

// freePort gives a port-0 address the next free port of the schedule.
func (a *addr) freePort() {
	if isUnix(a.network) || a.port != 0 {
		return
	}
	if a.run.nextPort == 0 {
		a.run.nextPort = firstPort
	}
	a.port = a.run.nextPort
	a.run.nextPort++
}

// key is the address's name in the in-memory network: streams and
// datagrams have ports of their own, as TCP and UDP do.
func (a *addr) key() string {
	switch {
	case a.network == "unix":
		return "unix:" + a.path
	case a.network == "unixgram":
		return "unixgram:" + a.path
	case isPacket(a.network):
		return "udp/" + net.JoinHostPort(a.host, strconv.Itoa(a.port))
	}
	return net.JoinHostPort(a.host, strconv.Itoa(a.port))
}

// netAddr is the address as package net shows it.
func (a *addr) netAddr() net.Addr {
	if isUnix(a.network) {
		return &net.UnixAddr{Name: a.path, Net: a.network}
	}
	ip := net.ParseIP(a.host)
	if ip == nil {
		return memnet.Addr(net.JoinHostPort(a.host, strconv.Itoa(a.port))) // a name no resolver knows here
	}
	if ip4 := ip.To4(); ip4 != nil {
		ip = ip4
	}
	if isPacket(a.network) {
		return &net.UDPAddr{IP: ip, Port: a.port}
	}
	return &net.TCPAddr{IP: ip, Port: a.port}
}

// client is the address of the n-th connection's dialing side.
func (a *addr) client(n int) net.Addr {
	if a.network == "unix" {
		return &net.UnixAddr{Net: "unix"} // an unbound socket, as on Linux
	}
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1).To4(), Port: firstClientPort + n - 1}
}

// Pipe stands for net.Pipe: a synchronous in-memory connection whose
// Reads, Writes and Closes are ops (memnet.Pipe).
//
//go:noinline
func Pipe() (net.Conn, net.Conn) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return net.Pipe()
	}
	return memnet.Pipe(pc)
}
