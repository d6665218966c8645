// Package tlsshadow serves a counter over HTTPS and echoes lines over TLS:
// its tests serve with httptest's TLS server and crypto/tls, and call with
// net/http's client and tls.Dial.
package tlsshadow

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Transport dials with a Dialer's method value set up as the package
// initializes: it dials nothing then, and under control the in-memory
// network when a test sends through it.
var Transport = &http.Transport{
	DialContext:     (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
	TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
}

// Counter counts the requests it serves.
type Counter struct {
	mu sync.Mutex
	n  int
}

// ServeHTTP counts the request and writes the count.
func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	fmt.Fprintf(w, "%d %s", n, r.Proto)
}

// Racy counts without its lock.
type Racy struct{ n int }

// ServeHTTP counts the request, unlocked: two requests at once race.
func (c *Racy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.n++
	fmt.Fprintf(w, "%d", c.n)
}

// Echo accepts TLS connections on l and writes back each line it reads,
// until l is closed.
func Echo(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			sc := bufio.NewScanner(c)
			for sc.Scan() {
				fmt.Fprintf(c, "%s\n", sc.Text())
			}
		}()
	}
}

// Listen listens for TLS connections on a free port of this machine.
func Listen(cfg *tls.Config) (net.Listener, error) {
	return tls.Listen("tcp", "127.0.0.1:0", cfg)
}

// Lines returns a reader of n lines that a goroutine writes through a
// pipe, as a snapshot is streamed to a peer.
func Lines(n int) io.ReadCloser {
	r, w := io.Pipe()
	go func() {
		for i := range n {
			if _, err := fmt.Fprintf(w, "line %d\n", i); err != nil {
				w.CloseWithError(err)
				return
			}
		}
		w.Close()
	}()
	return r
}
