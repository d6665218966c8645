// Package netshapes holds the shapes of network code that a test's one
// network must serve: every listen and dial of a test on the in-memory
// network, or, where the standard library dials, listens or serves on
// goroutines of its own, every one on the real network.
package netshapes

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// Echo answers each line of each connection l accepts with the same line,
// until l is closed.
func Echo(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			rd := bufio.NewReader(c)
			for {
				line, err := rd.ReadString('\n')
				if err != nil {
					return
				}
				io.WriteString(c, line)
			}
		}()
	}
}

// Roundtrip sends line on c and returns what comes back.
func Roundtrip(c net.Conn, line string) (string, error) {
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return "", err
	}
	got, err := bufio.NewReader(c).ReadString('\n')
	if len(got) > 0 {
		got = got[:len(got)-1]
	}
	return got, err
}

// Server keeps its listener as the concrete type ListenTCP returns: the
// in-memory network cannot give one, so a test that starts it runs on the
// real network.
type Server struct{ L *net.TCPListener }

// Start listens on a free port of this machine and echoes.
func Start() (*Server, error) {
	var s Server
	var err error
	s.L, err = net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	go Echo(s.L)
	return &s, nil
}

// Hello answers every request with "hello".
var Hello = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "hello")
})

// Stream keeps the listener Listen returns as a *net.TCPListener, by a
// type assertion that would panic on the in-memory network's: a test that
// makes one runs on the real network.
type Stream struct{ L *net.TCPListener }

// NewStream listens on addr and echoes.
func NewStream(addr string) (*Stream, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	go Echo(l)
	return &Stream{L: l.(*net.TCPListener)}, nil
}
