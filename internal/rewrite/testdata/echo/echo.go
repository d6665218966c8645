// Package echo is a TCP echo server and its client, written against
// package net with nothing of morpheus: under morpheus rewrite its
// listener and connections are the schedule's in-memory network.
package echo

import (
	"bufio"
	"net"
	"sync"
)

// Server echoes every line it reads back to its sender.
type Server struct {
	l  net.Listener
	wg sync.WaitGroup
}

// Listen starts a server on a free port of the loopback interface.
func Listen() (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{l: l}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// Addr is the server's address.
func (s *Server) Addr() string { return s.l.Addr().String() }

// Close stops the server and waits for its connections to end.
func (s *Server) Close() error {
	err := s.l.Close()
	s.wg.Wait()
	return err
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.l.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			r := bufio.NewReader(c)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if _, err := c.Write([]byte(line)); err != nil {
					return
				}
			}
		}()
	}
}

// Echo sends line (which ends in a newline) to addr and returns the reply.
func Echo(addr, line string) (string, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := c.Write([]byte(line)); err != nil {
		return "", err
	}
	return bufio.NewReader(c).ReadString('\n')
}
