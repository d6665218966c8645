package memnet

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// A Conn has every method of *net.TCPConn, so that code written for one
// runs on it: the socket options are accepted and change nothing, and File
// and SyscallConn fail, there being no socket.

// errNoSocket is the error of File and SyscallConn.
var errNoSocket = errors.New("memnet: an in-memory connection has no file descriptor")

// ReadFrom writes what r yields until io.EOF, as io.Copy does.
//
//go:noinline
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	pc := goruntime.CallerPC()
	buf := make([]byte, 32*1024)
	var n int64
	for {
		k, rerr := r.Read(buf)
		if k > 0 {
			w, werr := c.write(buf[:k], pc)
			n += int64(w)
			if werr != nil {
				return n, werr
			}
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// WriteTo writes what the connection reads to w until io.EOF.
//
//go:noinline
func (c *Conn) WriteTo(w io.Writer) (int64, error) {
	pc := goruntime.CallerPC()
	buf := make([]byte, 32*1024)
	var n int64
	for {
		k, rerr := c.read(buf, pc)
		if k > 0 {
			m, werr := w.Write(buf[:k])
			n += int64(m)
			if werr != nil {
				return n, werr
			}
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// SetKeepAlive does nothing: an in-memory connection never goes stale.
func (c *Conn) SetKeepAlive(bool) error { return nil }

// SetKeepAlivePeriod does nothing.
func (c *Conn) SetKeepAlivePeriod(time.Duration) error { return nil }

// SetKeepAliveConfig does nothing.
func (c *Conn) SetKeepAliveConfig(net.KeepAliveConfig) error { return nil }

// SetLinger does nothing: Close never loses written bytes.
func (c *Conn) SetLinger(int) error { return nil }

// SetNoDelay does nothing: bytes are never held for coalescing.
func (c *Conn) SetNoDelay(bool) error { return nil }

// SetReadBuffer does nothing: buffers are unbounded.
func (c *Conn) SetReadBuffer(int) error { return nil }

// SetWriteBuffer does nothing.
func (c *Conn) SetWriteBuffer(int) error { return nil }

// MultipathTCP reports false.
func (c *Conn) MultipathTCP() (bool, error) { return false, nil }

// File fails: there is no socket.
func (c *Conn) File() (*os.File, error) {
	return nil, opError("file", c.local, errNoSocket)
}

// SyscallConn fails: there is no socket.
func (c *Conn) SyscallConn() (syscall.RawConn, error) { return nil, errNoSocket }

// SetDeadline sets the virtual time after which Accept fails with
// os.ErrDeadlineExceeded; the zero time means none. An Accept blocked now
// takes the new deadline.
func (l *listener) SetDeadline(t time.Time) error {
	_, r := ctl.Self("Listener.SetDeadline")
	l.dl = virtual(r, t)
	l.q.WakeAll(r)
	return nil
}

// File fails: there is no socket.
func (l *listener) File() (*os.File, error) { return nil, opError("file", l.shown, errNoSocket) }

// SyscallConn fails: there is no socket.
func (l *listener) SyscallConn() (syscall.RawConn, error) { return nil, errNoSocket }
