package memnet

import (
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Pipe returns the two ends of a synchronous in-memory connection, as
// net.Pipe does, with its ops located at pc: there is no buffer, a Write
// returns once Reads on the other end have taken all its bytes (or either
// end closed: io.ErrClosedPipe), and Writes on one end take turns. A Read
// after the other end closed returns io.EOF, after this end closed
// io.ErrClosedPipe; deadlines are virtual, a Read or Write past its
// deadline fails with os.ErrDeadlineExceeded.
func Pipe(pc uintptr) (net.Conn, net.Conn) {
	_, r := ctl.Self("memnet.Pipe")
	ab := &syncPipe{res: r.NewResource(), site: pc}
	ba := &syncPipe{res: r.NewResource(), site: pc}
	return &pipeEnd{rd: ba, wr: ab}, &pipeEnd{rd: ab, wr: ba}
}

// syncPipe is one direction of a Pipe.
type syncPipe struct {
	res     uint32
	site    uintptr
	buf     []byte // what the write in progress has not handed over yet
	writing bool   // a write is in progress
	eof     bool   // the writing end closed
	gone    bool   // the reading end closed
	rq, wq  ctl.Queue
}

func (p *syncPipe) String() string {
	return fmt.Sprintf("pipe#%d created at %s", p.res, core.Where(p.site))
}

// pipeEnd is one end of a Pipe.
type pipeEnd struct {
	rd, wr   *syncPipe
	closed   bool
	rdl, wdl int64
}

// pipeAddr is the address of both ends, as net.Pipe's.
type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// Read takes bytes of the other end's write, waiting for one.
//
//go:noinline
func (e *pipeEnd) Read(b []byte) (int, error) {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Pipe.Read")
	p := e.rd
	for {
		op := core.Op{Kind: trace.KindNetRead, Res: p.res, Obj: -1, PC: pc}
		if e.rdl != 0 {
			op.HasDeadline, op.Deadline = true, e.rdl
		}
		if !e.closed && len(p.buf) == 0 && !p.eof && (e.rdl == 0 || r.Now() < e.rdl) {
			p.rq.Push(t)
			op.Blocked, op.On = true, p
		}
		timedOut := r.Do(t, op)
		p.rq.Remove(t)
		switch {
		case e.closed:
			return 0, io.ErrClosedPipe
		case len(p.buf) > 0:
			n := copy(b, p.buf)
			p.buf = p.buf[n:]
			if len(p.buf) == 0 {
				p.wq.WakeAll(r)
			}
			return n, nil
		case p.eof:
			r.Event().Val = trace.ValClosed
			return 0, io.EOF
		case timedOut || e.rdl != 0 && r.Now() >= e.rdl:
			ev := r.Event()
			ev.Val, ev.Flag = trace.ValNone, ev.Flag|trace.FlagTimeout
			return 0, os.ErrDeadlineExceeded
		}
		r.Event().Val = trace.ValNone
	}
}

// Write hands b to Reads of the other end and returns once they took it.
//
//go:noinline
func (e *pipeEnd) Write(b []byte) (int, error) {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Pipe.Write")
	p := e.wr
	mine := false // b is in p.buf
	for {
		op := core.Op{Kind: trace.KindNetWrite, Res: p.res, Obj: -1, PC: pc}
		if e.wdl != 0 {
			op.HasDeadline, op.Deadline = true, e.wdl
		}
		waiting := mine && len(p.buf) > 0 || !mine && p.writing
		if !e.closed && !p.gone && waiting && (e.wdl == 0 || r.Now() < e.wdl) {
			p.wq.Push(t)
			op.Blocked, op.On = true, p
		}
		timedOut := r.Do(t, op)
		p.wq.Remove(t)
		done := len(b)
		if mine {
			done = len(b) - len(p.buf)
		}
		switch {
		case mine && len(p.buf) == 0:
			p.writing = false
			p.wq.WakeAll(r)
			return len(b), nil
		case e.closed || p.gone:
			return e.stop(r, mine, done, io.ErrClosedPipe)
		case timedOut || e.wdl != 0 && r.Now() >= e.wdl:
			ev := r.Event()
			ev.Flag |= trace.FlagTimeout
			return e.stop(r, mine, done, os.ErrDeadlineExceeded)
		case !mine && !p.writing:
			if len(b) == 0 {
				return 0, nil
			}
			p.writing, mine = true, true
			p.buf = append([]byte(nil), b...)
			p.rq.WakeAll(r)
		}
	}
}

// stop ends a write that could not finish, having handed over done bytes.
func (e *pipeEnd) stop(r *core.Run, mine bool, done int, err error) (int, error) {
	if !mine {
		return 0, err
	}
	p := e.wr
	p.buf, p.writing = nil, false
	p.wq.WakeAll(r)
	return done, err
}

// Close closes this end: the other end reads io.EOF and its writes fail.
//
//go:noinline
func (e *pipeEnd) Close() error {
	pc := goruntime.CallerPC()
	t, r := ctl.Self("Pipe.Close")
	r.Do(t, core.Op{Kind: trace.KindNetClose, Res: e.wr.res, Obj: -1, PC: pc})
	if e.closed {
		return nil
	}
	e.closed = true
	e.wr.eof, e.rd.gone = true, true
	for _, p := range []*syncPipe{e.rd, e.wr} {
		p.rq.WakeAll(r)
		p.wq.WakeAll(r)
	}
	return nil
}

func (e *pipeEnd) LocalAddr() net.Addr  { return pipeAddr{} }
func (e *pipeEnd) RemoteAddr() net.Addr { return pipeAddr{} }

// SetDeadline sets both deadlines.
func (e *pipeEnd) SetDeadline(t time.Time) error {
	e.SetReadDeadline(t)
	return e.SetWriteDeadline(t)
}

// SetReadDeadline sets the virtual time after which Reads fail; a Read
// blocked now takes the new deadline.
func (e *pipeEnd) SetReadDeadline(t time.Time) error {
	_, r := ctl.Self("Pipe.SetReadDeadline")
	if e.closed {
		return io.ErrClosedPipe
	}
	e.rdl = virtual(r, t)
	e.rd.rq.WakeAll(r)
	return nil
}

// SetWriteDeadline sets the virtual time after which Writes fail; a Write
// blocked now takes the new deadline.
func (e *pipeEnd) SetWriteDeadline(t time.Time) error {
	_, r := ctl.Self("Pipe.SetWriteDeadline")
	if e.closed {
		return io.ErrClosedPipe
	}
	e.wdl = virtual(r, t)
	e.wr.wq.WakeAll(r)
	return nil
}
