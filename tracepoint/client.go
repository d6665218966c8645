package tracepoint

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/morpheus-go/morpheus/internal/ordering/proto"
)

// Environment variables read by Default.
const (
	EnvSocket  = "MORPHEUS_SOCKET"  // the ordering server's Unix socket
	EnvProcess = "MORPHEUS_PROCESS" // this process's name in the trace
)

// Client is a connection pool to one ordering server, for one process. Its
// methods are safe for concurrent use: concurrent hits use separate
// connections.
type Client struct {
	socket, process string

	mu     sync.Mutex
	idle   []*conn
	closed bool
}

type conn struct {
	c net.Conn
	r *bufio.Reader
	// helloPending: the hello was sent and its "ok 1" not read yet. The
	// reply is read before the first request's, which saves a round trip
	// per connection.
	helloPending bool
}

// Connect returns a client of the server at socket for the process named
// process. It connects and sends the hello; the server's answer is checked
// with the first hit.
func Connect(socket, process string) (*Client, error) {
	if !proto.ValidToken(process) {
		return nil, fmt.Errorf("tracepoint: process name %q: expected 1 to %d of [A-Za-z0-9._-/]", process, proto.MaxToken)
	}
	cl := &Client{socket: socket, process: process}
	c, err := cl.dial()
	if err != nil {
		return nil, err
	}
	cl.put(c)
	return cl, nil
}

func (cl *Client) dial() (*conn, error) {
	nc, err := net.Dial("unix", cl.socket)
	if err != nil {
		return nil, fmt.Errorf("tracepoint: %w", err)
	}
	c := &conn{c: nc, r: proto.NewReader(nc), helloPending: true}
	hello := proto.Format(proto.Msg{Kind: proto.Hello, Version: proto.Version, Name: cl.process})
	if _, err := nc.Write([]byte(hello + "\n")); err != nil {
		nc.Close()
		return nil, fmt.Errorf("tracepoint: %w", err)
	}
	return c, nil
}

// request sends line and waits for the reply want.
func (c *conn) request(line, want string) error {
	if _, err := c.c.Write([]byte(line + "\n")); err != nil {
		return fmt.Errorf("tracepoint: %w", err)
	}
	if c.helloPending {
		if err := c.expect("ok 1"); err != nil {
			return err
		}
		c.helloPending = false
	}
	return c.expect(want)
}

// expect reads one reply, which must be want.
func (c *conn) expect(want string) error {
	reply, err := proto.ReadLine(c.r)
	if err != nil {
		return fmt.Errorf("tracepoint: waiting for %q: %w", want, err)
	}
	if reply != want {
		return fmt.Errorf("tracepoint: server answered %q, expected %q", reply, want)
	}
	return nil
}

func (cl *Client) get() (*conn, error) {
	cl.mu.Lock()
	if cl.closed {
		cl.mu.Unlock()
		return nil, errors.New("tracepoint: client closed")
	}
	if n := len(cl.idle); n > 0 {
		c := cl.idle[n-1]
		cl.idle = cl.idle[:n-1]
		cl.mu.Unlock()
		return c, nil
	}
	cl.mu.Unlock()
	return cl.dial()
}

func (cl *Client) put(c *conn) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.closed {
		c.c.Close()
		return
	}
	cl.idle = append(cl.idle, c)
}

// Hit reports tracepoint name with attributes given as "KEY=VALUE" strings
// and blocks until the server releases it.
func (cl *Client) Hit(name string, attrs ...string) error {
	m := proto.Msg{Kind: proto.Hit, Name: name}
	for _, a := range attrs {
		k, v, _ := strings.Cut(a, "=")
		m.Attrs = append(m.Attrs, proto.Attr{Key: k, Value: v})
	}
	line := proto.Format(m)
	if _, err := proto.Parse(line); err != nil {
		return fmt.Errorf("tracepoint: %v", err)
	}
	c, err := cl.get()
	if err != nil {
		return err
	}
	if err := c.request(line, "go"); err != nil {
		c.c.Close()
		return err
	}
	cl.put(c)
	return nil
}

// Close says bye on the idle connections and closes them; hits in flight
// fail.
func (cl *Client) Close() error {
	cl.mu.Lock()
	idle := cl.idle
	cl.idle, cl.closed = nil, true
	cl.mu.Unlock()
	for _, c := range idle {
		c.c.Write([]byte("bye\n"))
		c.c.Close()
	}
	return nil
}

var (
	defaultOnce   sync.Once
	defaultClient *Client
	defaultErr    error
)

// Default returns the client configured by the environment: nil and no error
// when MORPHEUS_SOCKET is unset.
func Default() (*Client, error) {
	defaultOnce.Do(func() {
		sock := os.Getenv(EnvSocket)
		if sock == "" {
			return
		}
		proc := os.Getenv(EnvProcess)
		if proc == "" {
			proc = sanitize(filepath.Base(os.Args[0]))
		}
		defaultClient, defaultErr = Connect(sock, proc)
	})
	return defaultClient, defaultErr
}

// Hit reports tracepoint name to the server named by MORPHEUS_SOCKET and
// blocks until it is released; it does nothing when MORPHEUS_SOCKET is unset.
// Attributes are "KEY=VALUE" strings. An error means the server could not be
// reached or refused the hit; the process may carry on.
func Hit(name string, attrs ...string) error {
	cl, err := Default()
	if cl == nil {
		return err
	}
	return cl.Hit(name, attrs...)
}

// Close closes the default client, if any.
func Close() error {
	cl, _ := Default()
	if cl == nil {
		return nil
	}
	return cl.Close()
}

// sanitize maps s to a valid token.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !proto.ValidToken(string(c)) {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "process"
	}
	if len(b) > proto.MaxToken {
		b = b[:proto.MaxToken]
	}
	return string(b)
}
