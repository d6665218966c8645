package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/proto"
)

// item is what a connection's reader delivers: a message or the error that
// ended the connection.
type item struct {
	msg proto.Msg
	err error
}

// read delivers the client's messages until an error, then the error.
func read(c net.Conn, out chan<- item, quit <-chan struct{}) {
	r := proto.NewReader(c)
	for {
		line, err := proto.ReadLine(r)
		var it item
		if err != nil {
			it.err = err
		} else if it.msg, it.err = proto.Parse(line); it.err != nil {
			it.err = fmt.Errorf("bad line %q: %w: %w", clip(line), it.err, errProtocol)
		}
		select {
		case out <- it:
		case <-quit:
			return
		}
		if it.err != nil {
			return
		}
	}
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// serve runs one connection: hello, then hits until bye or an error.
func (s *Server) serve(c net.Conn) {
	defer s.wg.Done()
	quit := make(chan struct{})
	defer func() {
		close(quit)
		c.Close()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()
	in := make(chan item, 1)
	go read(c, in, quit)

	next := func() (proto.Msg, error) {
		select {
		case it := <-in:
			return it.msg, it.err
		case <-s.done:
			return proto.Msg{}, errGone
		}
	}
	fail := func(err error) {
		if !isProtocolError(err) {
			return // the client left (EOF, reset) or the server stops
		}
		s.protocolError(err)
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		fmt.Fprintf(c, "err %v\n", err)
	}

	m, err := next()
	if err == nil && m.Kind != proto.Hello {
		err = fmt.Errorf("%s before hello: %w", m.Kind, errProtocol)
	}
	if err != nil {
		fail(err)
		return
	}
	proc := m.Name
	s.mu.Lock()
	s.res.Processes++
	s.mu.Unlock()
	if _, err := io.WriteString(c, "ok 1\n"); err != nil {
		return
	}
	for {
		m, err := next()
		if err != nil {
			fail(err)
			return
		}
		switch m.Kind {
		case proto.Hello:
			fail(fmt.Errorf("second hello: %w", errProtocol))
			return
		case proto.Bye:
			return
		}
		key, waits, cons, hold, p := s.arrive(proc, m)
		timedOut, err := s.wait(waits, p, in)
		if err != nil {
			s.drop()
			fail(err)
			return
		}
		s.pass(key, cons, hold, timedOut)
		if _, err := io.WriteString(c, "go\n"); err != nil {
			return
		}
	}
}

// wait blocks a hit until its constraints' Firsts passed (or the time-out)
// and, in random mode, until the pool releases it. Anything from the client
// meanwhile (a line, EOF) ends the connection.
func (s *Server) wait(waits []chan struct{}, p *pooled, in <-chan item) (timedOut bool, err error) {
	if len(waits) > 0 {
		t := time.NewTimer(s.cfg.Timeout)
		defer t.Stop()
		for _, w := range waits {
			if timedOut {
				break
			}
			select {
			case <-w:
			case <-t.C:
				timedOut = true
			case it := <-in:
				return false, heldErr(it)
			case <-s.done:
				return false, errGone
			}
		}
	}
	if p != nil {
		select {
		case <-p.release:
		case it := <-in:
			s.unpool(p)
			return false, heldErr(it)
		case <-s.done:
			return false, errGone
		}
	}
	return timedOut, nil
}

// errProtocol marks errors that are the client's fault.
var errProtocol = errors.New("protocol error")

// isProtocolError reports whether err is a protocol violation (a bad, cut
// or overlong line, a misplaced message) rather than the client leaving.
func isProtocolError(err error) bool {
	return errors.Is(err, errProtocol) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, proto.ErrLineTooLong)
}

func heldErr(it item) error {
	if it.err != nil {
		return it.err
	}
	return fmt.Errorf("%s while a hit is held: %w", it.msg.Kind, errProtocol)
}
