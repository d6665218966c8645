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
