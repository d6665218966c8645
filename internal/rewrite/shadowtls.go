package rewrite

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// crypto/tls inside the shadow: a crypto/tls connection holds mutexes of
// its own across reads and writes of the connection beneath it (its
// handshake lock across the whole handshake, its input lock across a
// Read, its output lock across a Write). Over the in-memory network those
// reads and writes are ops, where the schedule hands over to another
// task; a task that then wanted the same lock would block on a mutex the
// schedule does not see. crypto/tls cannot be copied as net/http is (it
// imports the FIPS module's internal packages, some with assembly), and
// its cryptography is plain computation that should stay cheap. So the
// shadow's crypto/tls is a stand-in: every exported name of crypto/tls is
// an alias of the standard one (Config, Certificate, ConnectionState,
// ...: their values cross between your code and the standard library
// unchanged), but for Conn, Dialer and the functions that make
// connections. Its Conn wraps the standard one and takes locks of its own
// (written here, so rewritten as your code is: rt's) before each call that
// takes the standard connection's, so the standard locks are never
// contended and never block; a handshake's context is watched by a
// goroutine of the schedule, not by crypto/tls. Dial, Listen and the
// Dialer dial and listen through package net, which the rewrite makes the
// in-memory network's.

// shadowTLS is the standard package the stand-in replaces.
const shadowTLS = "crypto/tls"

// tlsHandwritten are the names of crypto/tls the stand-in declares itself.
var tlsHandwritten = []string{"Conn", "Dialer", "Client", "Server", "Dial", "DialWithDialer", "Listen", "NewListener"}

// shadowTLSSource returns the stand-in's source: tlsStandIn, and an alias
// or forwarding function for every other exported name of crypto/tls as
// the go command in dir with env sees it.
func shadowTLSSource(ctx context.Context, dir string, env []string) ([]byte, error) {
	pc := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir, Env: env, Context: ctx}
	pkgs, err := packages.Load(pc, shadowTLS)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 || pkgs[0].Types == nil || len(pkgs[0].Errors) > 0 {
		return nil, fmt.Errorf("loading %s: %v", shadowTLS, pkgs)
	}
	return tlsAliases(pkgs[0].Types)
}

// tlsAliases writes the stand-in for the package std: tlsStandIn, then
// its other exported names as aliases (types), constants, variables
// holding the same values, and functions that call the standard ones.
func tlsAliases(std *types.Package) ([]byte, error) {
	imports := map[string]string{std.Path(): "stdtls"}
	qual := func(p *types.Package) string {
		if n, ok := imports[p.Path()]; ok {
			return n
		}
		n := fmt.Sprintf("__i%d", len(imports))
		imports[p.Path()] = n
		return n
	}
	var b bytes.Buffer
	scope := std.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() || slices.Contains(tlsHandwritten, name) {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			fmt.Fprintf(&b, "const %s = stdtls.%s\n", name, name)
		case *types.Var:
			fmt.Fprintf(&b, "var %s = stdtls.%s\n", name, name)
		case *types.TypeName:
			if n, ok := obj.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
				return nil, fmt.Errorf("%s.%s is generic: no stand-in", std.Path(), name)
			}
			fmt.Fprintf(&b, "type %s = stdtls.%s\n", name, name)
		case *types.Func:
			sig := obj.Signature()
			if sig.TypeParams().Len() > 0 {
				return nil, fmt.Errorf("%s.%s is generic: no stand-in", std.Path(), name)
			}
			var params, args []string
			for i := range sig.Params().Len() {
				t := sig.Params().At(i).Type()
				p := fmt.Sprintf("p%d", i)
				ts := types.TypeString(t, qual)
				if sig.Variadic() && i == sig.Params().Len()-1 {
					ts = "..." + types.TypeString(t.(*types.Slice).Elem(), qual)
					p += "..."
				}
				params = append(params, fmt.Sprintf("p%d %s", i, ts))
				args = append(args, p)
			}
			results := types.TypeString(sig.Results(), qual)
			ret := "return "
			if sig.Results().Len() == 0 {
				results, ret = "", ""
			}
			fmt.Fprintf(&b, "func %s(%s) %s { %sstdtls.%s(%s) }\n", name, strings.Join(params, ", "), results, ret, name, strings.Join(args, ", "))
		}
	}
	var imps bytes.Buffer
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for p := range imports {
			if p != std.Path() && !yield(p) {
				return
			}
		}
	}) {
		fmt.Fprintf(&imps, "\t%s %q\n", imports[path], path)
	}
	var src bytes.Buffer
	fmt.Fprintf(&src, tlsStandIn, imps.Bytes())
	src.WriteString("\n// The names of crypto/tls this stand-in does not declare itself.\n\n")
	src.Write(b.Bytes())
	out, err := format.Source(src.Bytes())
	if err != nil {
		return nil, fmt.Errorf("the stand-in for %s: %v", std.Path(), err)
	}
	return out, nil
}

// tlsStandIn is the stand-in's own part: a Conn whose locks are rt's once
// rewritten, and the functions that make one; %s is where the imports of
// the generated part go.
const tlsStandIn = `// Package tls stands in for crypto/tls in morpheus's shadow packages: its
// Conn wraps crypto/tls's and takes locks of its own, which the rewrite
// controls, before each call that takes the standard connection's; every
// other name is crypto/tls's.
package tls

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	stdtls "crypto/tls"
%s)

// A Conn is a TLS connection, as crypto/tls's: its Read, Write,
// handshake and Close are crypto/tls's, called with this Conn's locks
// held where crypto/tls takes its own, so crypto/tls's are never
// contended.
type Conn struct {
	c   *stdtls.Conn
	raw net.Conn

	hs  sync.Mutex // crypto/tls's handshake lock: handshakes, ConnectionState
	in  sync.Mutex // its input lock: Read
	out sync.Mutex // its output lock: Write, and Close's alert

	complete atomic.Bool  // the handshake succeeded
	writers  atomic.Int32 // Writes under way
}

// Client returns a new TLS client side of conn, as crypto/tls's.
func Client(conn net.Conn, config *Config) *Conn {
	return &Conn{c: stdtls.Client(conn, config), raw: conn}
}

// Server returns a new TLS server side of conn, as crypto/tls's.
func Server(conn net.Conn, config *Config) *Conn {
	return &Conn{c: stdtls.Server(conn, config), raw: conn}
}

// Handshake runs the handshake if it has not yet run.
func (c *Conn) Handshake() error { return c.HandshakeContext(context.Background()) }

// HandshakeContext runs the handshake if it has not yet run; if ctx is
// done before it completes, the connection is closed and ctx's error
// returned, as crypto/tls's.
func (c *Conn) HandshakeContext(ctx context.Context) (ret error) {
	if c.complete.Load() {
		return nil
	}
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() { c.raw.Close() })
		defer func() {
			if !stop() {
				ret = ctx.Err()
			}
		}()
	}
	c.hs.Lock()
	defer c.hs.Unlock()
	err := c.c.HandshakeContext(context.WithoutCancel(ctx))
	if err == nil {
		c.complete.Store(true)
	}
	return err
}

// Read reads application data, after the handshake.
func (c *Conn) Read(b []byte) (int, error) {
	if err := c.Handshake(); err != nil {
		return 0, err
	}
	c.in.Lock()
	defer c.in.Unlock()
	return c.c.Read(b)
}

// Write writes application data, after the handshake.
func (c *Conn) Write(b []byte) (int, error) {
	if err := c.Handshake(); err != nil {
		return 0, err
	}
	c.writers.Add(1)
	defer c.writers.Add(-1)
	c.out.Lock()
	defer c.out.Unlock()
	return c.c.Write(b)
}

// Close closes the connection, after a close_notify alert if the handshake
// completed and no Write is under way, as crypto/tls's.
func (c *Conn) Close() error {
	if c.complete.Load() && c.writers.Load() == 0 {
		c.out.Lock()
		defer c.out.Unlock()
	}
	return c.c.Close()
}

// CloseWrite sends a close_notify alert: the peer reads io.EOF.
func (c *Conn) CloseWrite() error {
	if !c.complete.Load() {
		return errors.New("tls: CloseWrite called before handshake complete")
	}
	c.out.Lock()
	defer c.out.Unlock()
	return c.c.CloseWrite()
}

// ConnectionState returns the connection's state, waiting for a handshake
// under way, as crypto/tls's.
func (c *Conn) ConnectionState() ConnectionState {
	c.hs.Lock()
	defer c.hs.Unlock()
	return c.c.ConnectionState()
}

// OCSPResponse returns the stapled OCSP response of the server, if any.
func (c *Conn) OCSPResponse() []byte {
	c.hs.Lock()
	defer c.hs.Unlock()
	return c.c.OCSPResponse()
}

// VerifyHostname checks that the peer's certificate chain is valid for
// host.
func (c *Conn) VerifyHostname(host string) error {
	c.hs.Lock()
	defer c.hs.Unlock()
	return c.c.VerifyHostname(host)
}

// NetConn returns the connection beneath.
func (c *Conn) NetConn() net.Conn { return c.raw }

// LocalAddr returns the local address.
func (c *Conn) LocalAddr() net.Addr { return c.raw.LocalAddr() }

// RemoteAddr returns the peer's address.
func (c *Conn) RemoteAddr() net.Addr { return c.raw.RemoteAddr() }

// SetDeadline sets the deadlines of the connection beneath.
func (c *Conn) SetDeadline(t time.Time) error { return c.raw.SetDeadline(t) }

// SetReadDeadline sets the read deadline of the connection beneath.
func (c *Conn) SetReadDeadline(t time.Time) error { return c.raw.SetReadDeadline(t) }

// SetWriteDeadline sets the write deadline of the connection beneath.
func (c *Conn) SetWriteDeadline(t time.Time) error { return c.raw.SetWriteDeadline(t) }

// listener accepts TLS server connections.
type listener struct {
	net.Listener
	config *Config
}

// Accept waits for the next connection and returns its TLS server side.
func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return Server(c, l.config), nil
}

// NewListener returns a listener whose connections are inner's, each the
// server side of TLS.
func NewListener(inner net.Listener, config *Config) net.Listener {
	return &listener{Listener: inner, config: config}
}

// Listen listens on laddr, each accepted connection the server side of
// TLS; config must name a certificate.
func Listen(network, laddr string, config *Config) (net.Listener, error) {
	if config == nil || len(config.Certificates) == 0 && config.GetCertificate == nil && config.GetConfigForClient == nil {
		return nil, errors.New("tls: neither Certificates, GetCertificate, nor GetConfigForClient set in Config")
	}
	l, err := net.Listen(network, laddr)
	if err != nil {
		return nil, err
	}
	return NewListener(l, config), nil
}

// Dial dials addr and runs a TLS client handshake.
func Dial(network, addr string, config *Config) (*Conn, error) {
	return DialWithDialer(new(net.Dialer), network, addr, config)
}

// DialWithDialer dials addr with dialer and runs a TLS client handshake,
// both within dialer's Timeout and Deadline.
func DialWithDialer(dialer *net.Dialer, network, addr string, config *Config) (*Conn, error) {
	return dial(context.Background(), dialer, network, addr, config)
}

func dial(ctx context.Context, nd *net.Dialer, network, addr string, config *Config) (*Conn, error) {
	if nd.Timeout != 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, nd.Timeout)
		defer cancel()
	}
	if !nd.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, nd.Deadline)
		defer cancel()
	}
	raw, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if config == nil {
		config = &Config{}
	}
	if config.ServerName == "" {
		host := addr
		if i := strings.LastIndex(addr, ":"); i >= 0 {
			host = addr[:i]
		}
		config = config.Clone()
		config.ServerName = host
	}
	conn := Client(raw, config)
	if err := conn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	return conn, nil
}

// A Dialer dials TLS connections, as crypto/tls's.
type Dialer struct {
	NetDialer *net.Dialer
	Config    *Config
}

// Dial dials addr and runs a TLS client handshake.
func (d *Dialer) Dial(network, addr string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, addr)
}

// DialContext dials addr and runs a TLS client handshake, both within ctx.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	nd := d.NetDialer
	if nd == nil {
		nd = new(net.Dialer)
	}
	c, err := dial(ctx, nd, network, addr, d.Config)
	if err != nil {
		return nil, err
	}
	return c, nil
}
`
