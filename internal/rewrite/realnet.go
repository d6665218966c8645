package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"sort"
)

// One network per test: a test's network is either all in-memory and
// controlled, or all real. Some of the standard library dials, listens
// and serves on goroutines of its own that morpheus does not start and
// that block on its own locks and channels: net/http's servers and clients,
// httptest's servers, net/rpc, crypto/tls (whose connections hold a lock
// across their reads during a handshake). Put under control, a schedule
// would wait forever for such a goroutine, or a test's listener would be
// in memory while the library dials the real network. So a test that
// reaches one of them, or io.Pipe (whose ends block on channels of the
// standard library's: a controlled reader would hold its schedule up),
// directly or through functions of the load it calls (as CheckTests
// follows calls), runs once on the real network and real time, as go test
// runs it, and is told so at its line (rt.RealTest, and -list). Calls through function values and interfaces are not
// followed.

// realNetFuncs lists the package-level functions and variables that use
// the real network whatever the rewriter does, by package path.
var realNetFuncs = map[string][]string{
	"net/http": {"Get", "Head", "Post", "PostForm", "ListenAndServe", "ListenAndServeTLS", "Serve", "ServeTLS",
		"DefaultClient", "DefaultTransport"},
	"net/http/httptest": {"NewServer", "NewUnstartedServer", "NewTLSServer"},
	"net/rpc":           {"Dial", "DialHTTP", "DialHTTPPath", "NewClient", "NewClientWithCodec", "ServeConn", "ServeCodec", "Accept"},
	"net/rpc/jsonrpc":   {"Dial", "NewClient", "ServeConn"},
	"net/smtp":          {"Dial", "SendMail"},
	"crypto/tls":        {"Dial", "DialWithDialer", "Listen", "Client", "Server", "NewListener"},
	"io":                {"Pipe"},
	"net": {"ListenUnix", "DialUnix", "ListenUnixgram", "ListenIP", "DialIP", "ListenMulticastUDP",
		"FileListener", "FileConn", "FilePacketConn"},
}

// realNetMethods lists the methods that use the real network, by package
// path and type name.
var realNetMethods = map[string]map[string][]string{
	"net/http": {
		"Client":    {"Do", "Get", "Head", "Post", "PostForm"},
		"Server":    {"Serve", "ServeTLS", "ListenAndServe", "ListenAndServeTLS"},
		"Transport": {"RoundTrip"},
	},
	"net/http/httptest": {"Server": {"Start", "StartTLS"}},
	"net/rpc":           {"Server": {"Accept", "ServeConn", "ServeCodec"}},
	"crypto/tls":        {"Dialer": {"Dial", "DialContext"}},
}

// realNetSite returns how a use of obj is named if it is one of the above.
func realNetSite(obj types.Object) (string, bool) {
	if obj == nil || obj.Pkg() == nil {
		return "", false
	}
	p := obj.Pkg().Path()
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Signature().Recv(); recv != nil {
			t := recv.Type()
			if ptr, ok := t.(*types.Pointer); ok {
				t = ptr.Elem()
			}
			n, ok := t.(*types.Named)
			if !ok {
				return "", false
			}
			for _, m := range realNetMethods[p][n.Obj().Name()] {
				if m == fn.Name() {
					return fmt.Sprintf("%s.%s.%s", path.Base(p), n.Obj().Name(), m), true
				}
			}
			return "", false
		}
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return "", false
	}
	for _, n := range realNetFuncs[p] {
		if n == obj.Name() {
			return path.Base(p) + "." + n, true
		}
	}
	return "", false
}

// RealNet computes which functions reach the real network: for each, the
// first site found, "httptest.NewServer at server_test.go:31".
type RealNet struct {
	reason  map[types.Object]string
	callers map[types.Object][]types.Object
}

// NewRealNet returns an empty analysis.
func NewRealNet() *RealNet {
	return &RealNet{reason: map[types.Object]string{}, callers: map[types.Object][]types.Object{}}
}

// AddPackage adds the functions of one type-checked package.
func (rn *RealNet) AddPackage(files []*ast.File, info *types.Info, fset *token.FileSet) {
	for _, f := range files {
		var use *netUse
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj := info.Defs[fd.Name]
			if obj == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if concreteCall(info, n) == "" {
						return true
					}
					if use == nil {
						use = newNetUse(info, f)
					}
					if ok, _ := use.check(n); !ok {
						rn.mark(obj, fmt.Sprintf("net.%s at %s", n.Sel.Name, shortPos(fset.Position(n.Pos()))))
					}
				case *ast.Ident:
					u := info.Uses[n]
					if u == nil {
						return true
					}
					if site, ok := realNetSite(u); ok {
						rn.mark(obj, site+" at "+shortPos(fset.Position(n.Pos())))
						return true
					}
					if fn, ok := u.(*types.Func); ok {
						callee := fn.Origin()
						if callee != obj {
							rn.callers[callee] = append(rn.callers[callee], obj)
						}
					}
				}
				return true
			})
		}
	}
}

// mark gives fn its first reason.
func (rn *RealNet) mark(fn types.Object, why string) {
	if _, ok := rn.reason[fn]; !ok {
		rn.reason[fn] = why
	}
}

// Complete spreads the reasons from callees to callers, and returns them.
func (rn *RealNet) Complete() map[types.Object]string {
	var work []types.Object
	for fn := range rn.reason {
		work = append(work, fn)
	}
	sortObjects(work)
	for len(work) > 0 {
		fn := work[0]
		work = work[1:]
		for _, c := range rn.callers[fn] {
			if _, ok := rn.reason[c]; !ok {
				rn.reason[c] = rn.reason[fn]
				work = append(work, c)
			}
		}
	}
	return rn.reason
}

// sortObjects orders functions by where they are declared.
func sortObjects(objs []types.Object) {
	sort.Slice(objs, func(i, j int) bool {
		a, b := objs[i], objs[j]
		if a.Pos() != b.Pos() {
			return a.Pos() < b.Pos()
		}
		return a.Pkg().Path() < b.Pkg().Path()
	})
}
