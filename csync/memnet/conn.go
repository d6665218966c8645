package memnet

import (
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Conn is one side of an in-memory connection: a net.Conn whose Read,
// Write and Close are controlled ops.
type Conn struct {
	rd, wr        *pipe // bytes to this side, bytes from it
	local, remote net.Addr
	id            int64 // the connection's number in the iteration
	closed        bool
	rclosed       bool  // CloseRead: reads end
	rdl, wdl      int64 // deadlines in virtual ns, 0: none
	net           *network
}

// pipe is one direction of a connection.
type pipe struct {
	res      uint32
	from, to Addr
	buf      []byte
	inflight [][]byte  // written, held by the network (Faults.Delay), in order
	reset    bool      // the connection broke (Faults.Reset)
	eof      bool      // the writing side closed
	gone     bool      // the reading side closed
	q        ctl.Queue // blocked Reads
}

func (p *pipe) String() string { return fmt.Sprintf("conn %s→%s#%d", p.from, p.to, p.res) }

// Read reads what the peer wrote, waiting for it (see the package doc).
//
//go:noinline
func (c *Conn) Read(b []byte) (int, error) { return c.read(b, goruntime.CallerPC()) }

func (c *Conn) read(b []byte, pc uintptr) (int, error) {
	t, r := ctl.Self("Conn.Read")
	p := c.rd
	for {
		op := core.Op{Kind: trace.KindNetRead, Res: p.res, Obj: -1, PC: pc}
		if c.rdl != 0 {
			op.HasDeadline, op.Deadline = true, c.rdl
		}
		if len(p.buf) == 0 && !(p.eof && len(p.inflight) == 0) && !p.reset && !c.closed && !c.rclosed && (c.rdl == 0 || r.Now() < c.rdl) && len(b) > 0 {
			p.q.Push(t)
			op.Blocked, op.On = true, p
		}
		timedOut := r.Do(t, op)
		p.q.Remove(t)
		switch {
		case c.closed:
			return 0, opError("read", c.local, net.ErrClosed)
		case c.rclosed:
			r.Event().Val = trace.ValClosed
			return 0, io.EOF
		case p.reset:
			return 0, opError("read", c.local, syscall.ECONNRESET)
		case len(b) == 0:
			return 0, nil
		case len(p.buf) > 0:
			n := copy(b, p.buf)
			p.buf = p.buf[n:]
			if len(p.buf) == 0 {
				p.buf = nil
			}
			return n, nil
		case p.eof && len(p.inflight) == 0:
			r.Event().Val = trace.ValClosed
			return 0, io.EOF
		case timedOut || c.rdl != 0 && r.Now() >= c.rdl:
			ev := r.Event()
			ev.Val, ev.Flag = trace.ValNone, ev.Flag|trace.FlagTimeout
			return 0, opError("read", c.local, os.ErrDeadlineExceeded)
		}
		r.Event().Val = trace.ValNone // woken without data (a new deadline, another reader): wait again
	}
}

// Write queues b for the peer; it never blocks.
//
//go:noinline
func (c *Conn) Write(b []byte) (int, error) { return c.write(b, goruntime.CallerPC()) }

func (c *Conn) write(b []byte, pc uintptr) (int, error) {
	t, r := ctl.Self("Conn.Write")
	p := c.wr
	fa := noFault
	if c.net != nil && !c.closed && !p.reset {
		fa = c.net.decide(t, r, false, pc)
	}
	r.Do(t, core.Op{Kind: trace.KindNetWrite, Res: p.res, Obj: -1, PC: pc})
	switch {
	case c.closed || p.eof:
		return 0, opError("write", c.local, net.ErrClosed)
	case p.reset:
		return 0, opError("write", c.local, syscall.ECONNRESET)
	case c.wdl != 0 && r.Now() >= c.wdl:
		return 0, opError("write", c.local, os.ErrDeadlineExceeded)
	case p.gone:
		return 0, opError("write", c.local, syscall.EPIPE)
	case fa == reset:
		c.rd.reset, c.wr.reset = true, true
		c.rd.inflight, c.wr.inflight = nil, nil
		c.rd.q.WakeAll(r)
		c.wr.q.WakeAll(r)
		return 0, opError("write", c.local, syscall.ECONNRESET)
	case fa == delayed || len(p.inflight) > 0: // later bytes queue behind held ones
		p.hold(t, r, b, pc)
		return len(b), nil
	}
	p.buf = append(p.buf, b...)
	p.q.WakeAll(r)
	return len(b), nil
}

// Close closes the connection: the peer reads io.EOF after the bytes
// written before, blocked and later Reads and Writes on this side fail with
// net.ErrClosed.
//
//go:noinline
func (c *Conn) Close() error {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Conn.Close")
	r.Do(t, core.Op{Kind: trace.KindNetClose, Res: c.wr.res, Obj: -1, PC: pc})
	if c.closed {
		return opError("close", c.local, net.ErrClosed)
	}
	c.shut(r)
	return nil
}

// CloseWrite shuts the writing half: the peer reads io.EOF after the bytes
// written before, and this side can still read (TCP's half-close).
//
//go:noinline
func (c *Conn) CloseWrite() error {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Conn.CloseWrite")
	r.Do(t, core.Op{Kind: trace.KindNetClose, Res: c.wr.res, Obj: -1, PC: pc})
	if c.closed {
		return opError("close", c.local, net.ErrClosed)
	}
	c.wr.eof = true
	c.wr.q.WakeAll(r)
	return nil
}

// CloseRead shuts the reading half: this side's Reads return io.EOF, and
// the peer's Writes fail as if this side had closed.
//
//go:noinline
func (c *Conn) CloseRead() error {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Conn.CloseRead")
	r.Do(t, core.Op{Kind: trace.KindNetClose, Res: c.rd.res, Obj: -1, PC: pc})
	if c.closed {
		return opError("close", c.local, net.ErrClosed)
	}
	c.rclosed = true
	c.rd.gone = true
	c.rd.q.WakeAll(r)
	return nil
}

// shut closes c as the effect of the step that runs now.
func (c *Conn) shut(r *core.Run) {
	c.closed = true
	c.wr.eof = true
	c.rd.gone = true
	c.wr.q.WakeAll(r)
	c.rd.q.WakeAll(r)
}

// LocalAddr returns this side's address.
func (c *Conn) LocalAddr() net.Addr { return c.local }

// RemoteAddr returns the peer's address.
func (c *Conn) RemoteAddr() net.Addr { return c.remote }

// SetDeadline sets both deadlines.
func (c *Conn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

// SetReadDeadline sets the virtual time after which Reads fail with
// os.ErrDeadlineExceeded; the zero time means none. A Read blocked now
// takes the new deadline.
func (c *Conn) SetReadDeadline(t time.Time) error {
	_, r := ctl.Self("Conn.SetReadDeadline")
	c.rdl = virtual(r, t)
	c.rd.q.WakeAll(r)
	return nil
}

// SetWriteDeadline sets the virtual time after which Writes fail.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	_, r := ctl.Self("Conn.SetWriteDeadline")
	c.wdl = virtual(r, t)
	return nil
}

// virtual converts a deadline, a time tasks read (core.Run.Wall), to the
// clock's ns since the iteration's start; the zero time is no deadline, and
// a time at or before the start is already past.
func virtual(r *core.Run, t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return max(r.Virtual(int64(t.Sub(r.Epoch()))), 1)
}
