package memnet

import (
	"errors"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// network is one iteration's network: its listeners by address.
type network struct {
	res       uint32 // listens and dials of unknown addresses touch it
	listeners map[string]*listener
	packets   map[string]*PacketConn // datagram endpoints by address
	nconn     int

	faults                   Faults
	faulty                   bool
	delays, resets, refusals int // faults struck so far
}

var networks ctl.Local[network]

func current(r *core.Run) *network {
	return networks.Get(r, func() *network {
		return &network{res: r.NewResource(), listeners: map[string]*listener{}, packets: map[string]*PacketConn{}}
	})
}

var (
	errAddrInUse    error = syscall.EADDRINUSE
	errNotConnected error = syscall.ENOTCONN
	// errMissingAddress is net's error of a WriteTo without an address.
	errMissingAddress = errors.New("missing address")
)

func opError(op string, addr net.Addr, err error) error {
	return &net.OpError{Op: op, Net: "memnet", Addr: addr, Err: err}
}

// Listen announces addr on the iteration's network. It fails if another
// listener has it (syscall.EADDRINUSE).
//
//go:noinline
func Listen(addr string) (net.Listener, error) { return ListenAt(addr, goruntime.CallerPC()) }

// ListenAt is Listen with the op located at pc (for wrappers, such as the
// rewriter's runtime, that stand for the user's call).
func ListenAt(addr string, pc uintptr) (net.Listener, error) { return ListenNet(addr, nil, pc) }

// ListenNet is ListenAt whose listener shows the address shown (its Addr,
// and the LocalAddr of the connections it accepts) instead of Addr(addr):
// a *net.TCPAddr, for code that asks for one. nil shows Addr(addr).
func ListenNet(addr string, shown net.Addr, pc uintptr) (net.Listener, error) {
	t, r := ctl.Self("memnet.Listen")
	n := current(r)
	r.Do(t, core.Op{Kind: trace.KindNetListen, Res: n.res, Obj: -1, PC: pc})
	if _, ok := n.listeners[addr]; ok {
		return nil, opError("listen", Addr(addr), syscall.EADDRINUSE)
	}
	if shown == nil {
		shown = Addr(addr)
	}
	l := &listener{net: n, addr: Addr(addr), shown: shown, res: r.NewResource(), site: pc}
	n.listeners[addr] = l
	return l, nil
}

// Dial connects to the listener on addr. It never waits: the connection is
// queued for the listener's Accept. It fails with "connection refused" if
// nobody listens on addr.
//
//go:noinline
func Dial(addr string) (net.Conn, error) { return dial(addr, goruntime.CallerPC()) }

// DialTimeout is Dial: dialing never waits, so the time-out never expires.
//
//go:noinline
func DialTimeout(addr string, timeout time.Duration) (net.Conn, error) {
	return dial(addr, goruntime.CallerPC())
}

// DialAt is Dial with the op located at pc.
func DialAt(addr string, pc uintptr) (net.Conn, error) { return dial(addr, pc) }

// DialNet is DialAt whose connection's own address is client(n) for its
// number n in the iteration (1, 2, …) instead of Addr("client:n"): a
// *net.TCPAddr, for code that asks for one; nil is the default.
func DialNet(addr string, client func(n int) net.Addr, pc uintptr) (*Conn, error) {
	return dialNet(addr, client, pc)
}

func dial(addr string, pc uintptr) (net.Conn, error) {
	c, err := dialNet(addr, nil, pc)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func dialNet(addr string, client func(n int) net.Addr, pc uintptr) (*Conn, error) {
	t, r := ctl.Self("memnet.Dial")
	n := current(r)
	res := n.res
	if l := n.listeners[addr]; l != nil {
		res = l.res
	}
	fa := noFault
	if n.listeners[addr] != nil {
		fa = n.decide(t, r, true, pc)
	}
	r.Do(t, core.Op{Kind: trace.KindNetDial, Res: res, Obj: -1, PC: pc})
	ev := r.Event()
	l := n.listeners[addr]
	if l == nil || fa == refused {
		ev.Val = trace.ValNone
		return nil, opError("dial", Addr(addr), syscall.ECONNREFUSED)
	}
	n.nconn++
	ev.Res, ev.Val = l.res, int64(n.nconn)
	local := Addr("client:" + strconv.Itoa(n.nconn))
	up := &pipe{res: r.NewResource(), from: local, to: l.addr}
	down := &pipe{res: r.NewResource(), from: l.addr, to: local}
	var shownLocal net.Addr = local
	if client != nil {
		shownLocal = client(n.nconn)
	}
	id := int64(n.nconn)
	c := &Conn{rd: down, wr: up, local: shownLocal, remote: l.shown, id: id, net: n}
	server := &Conn{rd: up, wr: down, local: l.shown, remote: shownLocal, id: id, net: n}
	l.backlog = append(l.backlog, server)
	l.q.WakeOne(r)
	return c, nil
}
