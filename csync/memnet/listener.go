package memnet

import (
	"fmt"
	"net"
	"os"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// listener is a net.Listener of the in-memory network.
type listener struct {
	net     *network
	addr    Addr
	shown   net.Addr // what Addr returns
	res     uint32
	site    uintptr
	backlog []*Conn
	closed  bool
	dl      int64     // Accept's deadline in virtual ns, 0: none
	q       ctl.Queue // blocked Accepts
}

type listenerOn listener

func (l *listenerOn) String() string {
	return fmt.Sprintf("listener %s#%d created at %s", l.addr, l.res, core.Where(l.site))
}

// Accept waits for a connection and returns its server side. It fails with
// net.ErrClosed once the listener is closed.
//
//go:noinline
func (l *listener) Accept() (net.Conn, error) {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Listener.Accept")
	woken := false
	for {
		op := core.Op{Kind: trace.KindNetAccept, Res: l.res, Obj: -1, PC: pc}
		if l.dl != 0 {
			op.HasDeadline, op.Deadline = true, l.dl
		}
		if len(l.backlog) == 0 && !l.closed && (l.dl == 0 || r.Now() < l.dl) {
			if woken {
				l.q.PushFront(t)
			} else {
				l.q.Push(t)
			}
			op.Blocked, op.On = true, (*listenerOn)(l)
			woken = true
		}
		timedOut := r.Do(t, op)
		l.q.Remove(t)
		switch {
		case l.closed:
			r.Event().Val = trace.ValNone
			return nil, opError("accept", l.shown, net.ErrClosed)
		case len(l.backlog) > 0:
			c := l.backlog[0]
			l.backlog[0] = nil
			l.backlog = l.backlog[1:]
			r.Event().Val = c.id
			return c, nil
		case timedOut || l.dl != 0 && r.Now() >= l.dl:
			ev := r.Event()
			ev.Val, ev.Flag = trace.ValNone, ev.Flag|trace.FlagTimeout
			return nil, opError("accept", l.shown, os.ErrDeadlineExceeded)
		}
		r.Event().Val = trace.ValNone // another Accept took it first
	}
}

// Close stops listening: blocked and future Accepts fail, Dials to the
// address are refused, and connections not yet accepted are closed.
//
//go:noinline
func (l *listener) Close() error {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Listener.Close")
	r.Do(t, core.Op{Kind: trace.KindNetClose, Res: l.res, Obj: -1, PC: pc})
	if l.closed {
		return opError("close", l.shown, net.ErrClosed)
	}
	l.closed = true
	if l.net.listeners[string(l.addr)] == l {
		delete(l.net.listeners, string(l.addr))
	}
	for _, c := range l.backlog {
		c.shut(r)
	}
	l.backlog = nil
	l.q.WakeAll(r)
	return nil
}

// Addr returns the address the listener listens on.
func (l *listener) Addr() net.Addr { return l.shown }
