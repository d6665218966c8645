package rt

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/morpheus-go/morpheus/csync/memnet"
	"github.com/morpheus-go/morpheus/internal/core"
)

// In rewritten code net.Dial, net.DialTimeout, net.Listen and the Dial and
// DialContext methods of net.Dialer reach the schedule's in-memory network
// (package csync/memnet) instead of the real one: Listen, Dial, Accept,
// Read, Write and Close are ops, and each schedule starts with an empty
// network. Stream networks only ("tcp", "tcp4", "tcp6", "unix"); another
// network fails with an error that says so. Addresses are canonical: a
// host that names this machine ("", "localhost", "0.0.0.0", "::",
// "127.0.0.1", "::1") is 127.0.0.1, and port 0 in Listen is a free port
// numbered from 32768 in the order of the schedule's Listens. A listener's
// or connection's addresses are memnet.Addr, not *net.TCPAddr. Outside
// control (package initialization, TestMain) the real network is used.

// firstPort is the first port Listen hands out for port 0.
const firstPort = 32768

// Dial stands for net.Dial.
//
//go:noinline
func Dial(network, address string) (net.Conn, error) {
	pc := core.CallerPC()
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
	pc := core.CallerPC()
	if core.CurrentTask() == nil {
		return net.DialTimeout(network, address, timeout)
	}
	return dialAt(network, address, pc)
}

// DialerDial stands for d.Dial(network, address).
//
//go:noinline
func DialerDial(d *net.Dialer, network, address string) (net.Conn, error) {
	pc := core.CallerPC()
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
	pc := core.CallerPC()
	if core.CurrentTask() == nil {
		return d.DialContext(ctx, network, address)
	}
	if err := ctx.Err(); err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}
	return dialAt(network, address, pc)
}

// Listen stands for net.Listen.
//
//go:noinline
func Listen(network, address string) (net.Listener, error) {
	pc := core.CallerPC()
	t := core.CurrentTask()
	if t == nil {
		return net.Listen(network, address)
	}
	if err := streamNet("listen", network); err != nil {
		return nil, err
	}
	addr, err := canonAddr(network, address)
	if err != nil {
		return nil, &net.OpError{Op: "listen", Net: network, Err: err}
	}
	if host, port, _ := net.SplitHostPort(addr); port == "0" {
		s := state(t.Run())
		if s.nextPort == 0 {
			s.nextPort = firstPort
		}
		addr = net.JoinHostPort(host, strconv.Itoa(s.nextPort))
		s.nextPort++
	}
	return memnet.ListenAt(addr, pc)
}

func dialAt(network, address string, pc uintptr) (net.Conn, error) {
	if err := streamNet("dial", network); err != nil {
		return nil, err
	}
	addr, err := canonAddr(network, address)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}
	return memnet.DialAt(addr, pc)
}

// streamNet checks that network is one the in-memory network stands for.
func streamNet(op, network string) error {
	switch network {
	case "tcp", "tcp4", "tcp6", "unix":
		return nil
	}
	return &net.OpError{Op: op, Net: network, Err: net.UnknownNetworkError(network + " (morpheus controls only tcp and unix)")}
}

// canonAddr returns the in-memory network's name of address.
func canonAddr(network, address string) (string, error) {
	if network == "unix" {
		return "unix:" + address, nil
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return "", err
	}
	switch host {
	case "", "localhost", "0.0.0.0", "::", "127.0.0.1", "::1":
		host = "127.0.0.1"
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", &net.AddrError{Err: "invalid port", Addr: address}
	}
	return net.JoinHostPort(host, port), nil
}
