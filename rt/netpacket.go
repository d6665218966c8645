package rt

import (
	"context"
	"net"
	"strconv"

	"github.com/morpheus-go/morpheus/csync/memnet"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// ListenPacket stands for net.ListenPacket: udp and unixgram endpoints of
// the in-memory network (memnet.PacketConn: packets keep their sender's
// order, a packet to an address nobody is bound to is dropped).
//
//go:noinline
func ListenPacket(network, address string) (net.PacketConn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return net.ListenPacket(network, address)
	}
	return listenPacketAt(network, address, pc)
}

// ListenConfigListenPacket stands for lc.ListenPacket(ctx, network, address).
//
//go:noinline
func ListenConfigListenPacket(lc *net.ListenConfig, ctx context.Context, network, address string) (net.PacketConn, error) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return lc.ListenPacket(ctx, network, address)
	}
	if err := ctx.Err(); err != nil {
		return nil, &net.OpError{Op: "listen", Net: network, Err: err}
	}
	return listenPacketAt(network, address, pc)
}

func listenPacketAt(network, address string, pc uintptr) (net.PacketConn, error) {
	c, err := bindPacketAt(network, address, pc)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func bindPacketAt(network, address string, pc uintptr) (*memnet.PacketConn, error) {
	a, err := parseAddr("listen", network, address, packetNets)
	if err != nil {
		return nil, err
	}
	a.freePort()
	return memnet.ListenPacket(a.key(), a.netAddr(), a.keyOf, pc)
}

// dialPacket binds a datagram endpoint connected to peer: at laddr if not
// nil, at the schedule's next dialing port otherwise.
func dialPacket(network string, laddr, peer *addr, pc uintptr) (*memnet.PacketConn, error) {
	if laddr == nil || !isUnix(network) && laddr.port == 0 {
		if laddr == nil {
			laddr = &addr{network: network, host: "127.0.0.1", run: peer.run}
		}
		if !isUnix(network) {
			if peer.run.nextPacketPort == 0 {
				peer.run.nextPacketPort = firstClientPort
			}
			laddr.port = peer.run.nextPacketPort
			peer.run.nextPacketPort++
		}
	}
	return memnet.DialPacket(laddr.key(), laddr.netAddr(), laddr.keyOf, peer.key(), peer.netAddr(), pc)
}

// keyOf is the in-memory network's name of an address a datagram is sent
// to on a's network.
func (a *addr) keyOf(to net.Addr) (string, error) {
	b := &addr{network: a.network}
	if isUnix(a.network) {
		b.path = to.String()
		return b.key(), nil
	}
	host, port, err := net.SplitHostPort(to.String())
	if err != nil {
		return "", err
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return "", &net.AddrError{Err: "invalid port", Addr: to.String()}
	}
	b.host, b.port = canonHost(host), int(p)
	return b.key(), nil
}
