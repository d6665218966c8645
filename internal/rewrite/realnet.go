package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"slices"
	"sort"
	"strings"
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
// runs it, and is told so at its line (rt.RealTest, and -list). So does a
// test that counts allocations (allocCounters), and one that both starts a
// process (procStarts) and listens or dials: the processes it starts are
// on the real network, not on the test's in-memory one (a test that runs
// its own binary as peers and dials them). Calls through function values
// and interfaces are not followed.

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

// allocCounters are the functions that count the process's allocations
// (testing.AllocsPerRun reads runtime.ReadMemStats, and so does
// testing.Benchmark for its result's AllocsPerOp: a test that checks a
// benchmark of its own allocates nothing). Under control they
// would count morpheus's own allocations too (every op records a step), so
// a test that compares such counts runs once as go test runs it, as a test
// on the real network does, where they are the program's own.
// runtime.ReadMemStats counts so only in a test's own file (a test that
// reads Mallocs before and after a call): in a library it reads the
// statistics for a report (a metrics package's collector goroutine, which
// hashicorp/raft's tests start through go-metrics), and a test that reaches
// it stays under control. Run once outside control, such a test would leave
// its collector running outside control on objects that the next tests'
// schedules use.
var allocCounters = map[string][]string{"runtime": {"ReadMemStats"}, "testing": {"AllocsPerRun", "Benchmark"}}

// allocSite returns how a use of obj is named if it is one of allocCounters;
// inTest says whether the use is in a _test.go file.
func allocSite(obj types.Object, inTest bool) (string, bool) {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Signature().Recv() != nil || !slices.Contains(allocCounters[fn.Pkg().Path()], fn.Name()) {
		return "", false
	}
	if fn.Pkg().Path() == "runtime" && !inTest {
		return "", false
	}
	return fn.Pkg().Name() + "." + fn.Name() + " (counts allocations, morpheus's own too under control)", true
}

// procStarts are the functions and methods that start a process, by
// package path ("" for functions, else the receiver's type name).
var procStarts = map[string]map[string][]string{
	"os":      {"": {"StartProcess"}},
	"os/exec": {"Cmd": {"Start", "Run", "Output", "CombinedOutput"}},
}

// procSite returns how a use of obj is named if it is one of procStarts.
func procSite(obj types.Object) (string, bool) {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil {
		return "", false
	}
	byType := procStarts[fn.Pkg().Path()]
	recv, name := "", path.Base(fn.Pkg().Path())
	if r := fn.Signature().Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		if !ok {
			return "", false
		}
		recv = n.Obj().Name()
		name += "." + recv
	}
	if !slices.Contains(byType[recv], fn.Name()) {
		return "", false
	}
	return name + "." + fn.Name(), true
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

// closesIdle returns the identifier of net/http's DefaultTransport or
// DefaultClient if call only closes its idle connections
// (http.DefaultTransport.(*http.Transport).CloseIdleConnections(), the first
// line of leak checks copied from net/http's own tests, which then count
// goroutines): that dials and serves nothing, so it is no use of the real
// network, and the test that makes it stays under control. Any other use
// of the two variables is one (a method called through the RoundTripper
// interface is not followed).
func closesIdle(info *types.Info, call *ast.CallExpr) *ast.Ident {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	m, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || m.Pkg() == nil || m.Pkg().Path() != "net/http" || m.Name() != "CloseIdleConnections" {
		return nil
	}
	x := ast.Unparen(sel.X)
	if ta, ok := x.(*ast.TypeAssertExpr); ok {
		x = ast.Unparen(ta.X)
	}
	vs, ok := x.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := info.Uses[vs.Sel].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != "net/http" || v.Name() != "DefaultTransport" && v.Name() != "DefaultClient" {
		return nil
	}
	return vs.Sel
}

// netFuncs are package net's functions and methods that listen or dial:
// rewritten code reaches the in-memory network through them, but code
// that runs outside control (package initialization, TestMain) the real
// one.
var netFuncs = map[string]bool{
	"Listen": true, "ListenTCP": true, "ListenUDP": true, "ListenPacket": true,
	"Dial": true, "DialTimeout": true, "DialTCP": true, "DialUDP": true, "DialContext": true,
}

// netSite reports whether obj is one of netFuncs (a method of net.Dialer
// or net.ListenConfig included), named as a site.
func netSite(obj types.Object) (string, bool) {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "net" || !netFuncs[fn.Name()] {
		return "", false
	}
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		if !ok || n.Obj().Name() != "Dialer" && n.Obj().Name() != "ListenConfig" {
			return "", false
		}
		return "net." + n.Obj().Name() + "." + fn.Name(), true
	}
	return "net." + fn.Name(), true
}

// RealNet computes which functions reach the real network: for each, the
// first site found, "httptest.NewServer at server_test.go:31". The nodes are
// functions and package-level variables; what code that runs outside
// control (a variable's initializer, init, TestMain) listens or dials is
// the real network, so a function that uses a variable set up so is on it
// too, and every test of a package whose TestMain or init listens or dials
// is. The nodes are named by ObjectKey, not by their types.Object: the
// packages may come from several loads (a package's own syntax in one, its
// export data in another), whose objects of one function differ.
type RealNet struct {
	real, net map[string]string
	// procs holds the functions that start a process, talk the
	// functions that listen, dial, serve or call over any network (a
	// shadowed package's included): a function in both is real.
	procs, talk map[string]string
	// main holds the tests whose only reason is their package's init or
	// TestMain (Main); sites the functions whose own body names a site
	// of the network (Sites).
	main     map[string]string
	sites    map[string]bool
	netRoots map[string]bool     // the roots that reach a site (NetRoots)
	callers  map[string][]string // the functions that use a function or variable
	vars     []string            // package-level variables with initializers
	roots    map[string][]string // init and TestMain, by test binary (package path)
	tests    map[string][]string
	names    map[string]string         // each declared node's name
	pos      map[string]token.Position // and where it is declared
	// shadowed holds the standard packages whose shadows the rewritten
	// code imports (shadow.go): their sites are no reason (shadowedSite).
	shadowed map[string]string
}

// NewRealNet returns an empty analysis.
func NewRealNet() *RealNet {
	return &RealNet{real: map[string]string{}, net: map[string]string{}, main: map[string]string{}, sites: map[string]bool{},
		procs: map[string]string{}, talk: map[string]string{},
		netRoots: map[string]bool{},
		callers:  map[string][]string{}, roots: map[string][]string{},
		tests: map[string][]string{}, names: map[string]string{}, pos: map[string]token.Position{}}
}

// ObjectKey names a function or package-level variable alike in every load
// of its package: its package path, its receiver's type name for a method,
// and its name ("p.T.M", "p.F").
func ObjectKey(obj types.Object) string {
	if obj == nil {
		return ""
	}
	pkg := ""
	if obj.Pkg() != nil {
		pkg = obj.Pkg().Path()
	}
	if f, ok := obj.(*types.Func); ok {
		if recv := f.Signature().Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			switch t := types.Unalias(t).(type) {
			case *types.Named:
				return pkg + "." + t.Obj().Name() + "." + f.Name()
			default:
				return pkg + ".(" + types.TypeString(t, nil) + ")." + f.Name()
			}
		}
	}
	return pkg + "." + obj.Name()
}

// AddPackage adds the functions and package-level variables of one
// type-checked package.
func (rn *RealNet) AddPackage(files []*ast.File, info *types.Info, fset *token.FileSet) {
	declare := func(obj types.Object) string {
		k := ObjectKey(obj)
		if _, ok := rn.names[k]; !ok {
			rn.names[k], rn.pos[k] = obj.Name(), fset.Position(obj.Pos())
		}
		return k
	}
	for _, f := range files {
		var use *netUse
		scan := func(obj string, root ast.Node, init bool) {
			okAssert := map[*ast.TypeAssertExpr]bool{}
			idle := map[*ast.Ident]bool{}
			called := map[*ast.Ident]bool{} // the functions a call names
			ast.Inspect(root, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return !init // a variable's function runs later, not at its initialization
				case *ast.CallExpr:
					if id := closesIdle(info, n); id != nil {
						idle[id] = true
					}
					switch fun := ast.Unparen(n.Fun).(type) {
					case *ast.Ident:
						called[fun] = true
					case *ast.SelectorExpr:
						called[fun.Sel] = true
					}
				case *ast.AssignStmt:
					if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
						markCommaOK(okAssert, n.Rhs[0])
					}
				case *ast.ValueSpec:
					if len(n.Names) == 2 && len(n.Values) == 1 {
						markCommaOK(okAssert, n.Values[0])
					}
				case *ast.TypeAssertExpr:
					if name := netConcreteAssert(info, n); name != "" && !okAssert[n] {
						mark(rn.real, obj, fmt.Sprintf("type assertion to *net.%s at %s", name, shortPos(fset.Position(n.Pos()))))
					}
				case *ast.SelectorExpr:
					if concreteCall(info, n) == "" {
						return true
					}
					if use == nil {
						use = newNetUse(info, f)
					}
					if ok, _ := use.check(n); !ok {
						mark(rn.real, obj, fmt.Sprintf("net.%s at %s", n.Sel.Name, shortPos(fset.Position(n.Pos()))))
					}
				case *ast.Ident:
					u := info.Uses[n]
					if u == nil || idle[n] {
						return true
					}
					at := " at " + shortPos(fset.Position(n.Pos()))
					if site, ok := procSite(u); ok {
						mark(rn.procs, obj, site+at)
						return true
					}
					if _, ok := realNetSite(u); ok {
						mark(rn.talk, obj, "")
					} else if _, ok := netSite(u); ok {
						mark(rn.talk, obj, "")
					}
					if site, ok := realNetSite(u); ok && !rn.shadowedSite(u) {
						mark(rn.real, obj, site+at)
						mark(rn.net, obj, site+at)
						if !init {
							rn.sites[obj] = true
						}
						return true
					}
					if site, ok := allocSite(u, strings.HasSuffix(fset.Position(f.Pos()).Filename, "_test.go")); ok {
						mark(rn.real, obj, site+at)
						return true
					}
					if site, ok := netSite(u); ok {
						if init && !called[n] {
							// A variable's dialer held as a value
							// (Transport{DialContext: d.DialContext}),
							// called later: rewritten, it dials the
							// in-memory network then.
							return true
						}
						mark(rn.net, obj, site+at)
						if !init {
							rn.sites[obj] = true
						}
						return true
					}
					switch u := u.(type) {
					case *types.Func:
						if callee := ObjectKey(u.Origin()); callee != obj {
							rn.callers[callee] = append(rn.callers[callee], obj)
						}
					case *types.Var:
						if u.Pkg() != nil && u.Parent() == u.Pkg().Scope() {
							if v := ObjectKey(u); v != obj {
								rn.callers[v] = append(rn.callers[v], obj)
							}
						}
					}
				}
				return true
			})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				def := info.Defs[d.Name]
				if def == nil || d.Body == nil {
					continue
				}
				obj := declare(def)
				scan(obj, d.Body, false)
				if d.Recv == nil {
					bin := strings.TrimSuffix(def.Pkg().Path(), "_test") // p and p_test are one test binary
					switch name := d.Name.Name; {
					case name == "init" || name == "TestMain":
						rn.roots[bin] = append(rn.roots[bin], obj)
					case isTestName(name):
						rn.tests[bin] = append(rn.tests[bin], obj)
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Values) == 0 {
						continue
					}
					for _, name := range vs.Names {
						if def := info.Defs[name]; def != nil {
							obj := declare(def)
							rn.vars = append(rn.vars, obj)
							for _, v := range vs.Values {
								scan(obj, v, true)
							}
						}
					}
				}
			}
		}
	}
}

// mark gives fn its first reason in m.
func mark(m map[string]string, fn string, why string) {
	if _, ok := m[fn]; !ok {
		m[fn] = why
	}
}

// Complete spreads the reasons from callees to callers, and returns the
// functions that reach the real network, by ObjectKey.
func (rn *RealNet) Complete() map[string]string {
	rn.spread(rn.net)
	// A variable initialized outside control holds the real network if
	// its initializer listens or dials at all.
	for _, v := range rn.vars {
		if why, ok := rn.net[v]; ok {
			mark(rn.real, v, rn.names[v]+" is set up before the tests, on the real network: "+why)
		}
	}
	// A function that starts a process and reaches the network talks
	// to processes outside the in-memory one.
	rn.spread(rn.procs)
	rn.spread(rn.talk)
	var both []string
	for fn := range rn.procs {
		if _, ok := rn.talk[fn]; ok {
			both = append(both, fn)
		}
	}
	for _, fn := range both {
		mark(rn.real, fn, rn.procs[fn]+" (the processes it starts are on the real network)")
	}
	rn.spread(rn.real)
	var bins []string
	for p := range rn.roots {
		bins = append(bins, p)
	}
	sort.Strings(bins)
	for _, p := range bins {
		for _, root := range rn.roots[p] {
			why, ok := rn.net[root]
			if !ok {
				continue
			}
			rn.netRoots[root] = true
			for _, t := range rn.tests[p] {
				if _, ok := rn.real[t]; !ok {
					mark(rn.main, t, rn.names[root]+" listens or dials before the tests, on the real network: "+why)
				}
			}
		}
	}
	return rn.real
}

// Main returns, after Complete, the tests that reach the real network only
// if their package's init or TestMain did listen or dial (every path of
// theirs that may is followed, but whether it runs is decided at run
// time: etcd's clientv3 starts its cluster only for the examples), by
// ObjectKey, with the first site found. Such a test is wrapped in
// rt.MainNetTest, which runs it on the real network if a function of Sites
// was called while one of NetRoots ran, before the first test started, and
// under control otherwise.
func (rn *RealNet) Main() map[string]string { return rn.main }

// NetRoots returns, after Complete, the init functions and TestMains (by
// ObjectKey) that may reach a site: the rewriter has each open a window
// at its entry (rt.RootRuns) that closes when it returns or the first
// test starts. Only a site's function called in such a window counts,
// not one another package's initialization calls (go-systemd's journal
// dials its socket in its init, in every binary that imports it).
func (rn *RealNet) NetRoots() map[string]bool { return rn.netRoots }

// Sites returns the functions (by ObjectKey) whose own body, closures
// included, names a site of the network (a listen, a dial, a server or
// client of the standard library): the rewriter has each note at its
// entry that it ran (rt.NetReached), which is how code outside control is
// seen to reach the network before the tests.
func (rn *RealNet) Sites() map[string]bool { return rn.sites }

// spread gives the callers of each node in m its reason, until nothing
// changes.
func (rn *RealNet) spread(m map[string]string) {
	var work []string
	for fn := range m {
		work = append(work, fn)
	}
	rn.sortNodes(work)
	for len(work) > 0 {
		fn := work[0]
		work = work[1:]
		for _, c := range rn.callers[fn] {
			if _, ok := m[c]; !ok {
				m[c] = m[fn]
				work = append(work, c)
			}
		}
	}
}

// sortNodes orders functions by where they are declared.
func (rn *RealNet) sortNodes(nodes []string) {
	sort.Slice(nodes, func(i, j int) bool {
		a, b := rn.pos[nodes[i]], rn.pos[nodes[j]]
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return nodes[i] < nodes[j]
	})
}

// shadowedSite reports whether a site of realNetFuncs or realNetMethods is
// in a package whose shadow rewritten code imports: its goroutines are
// then tasks and its network the in-memory one. A TLS server or client is
// one only if crypto/tls is shadowed too (its stand-in's connections take
// locks the schedule controls: shadowtls.go).
func (rn *RealNet) shadowedSite(obj types.Object) bool {
	if _, on := rn.shadowed[shadowTop]; on && obj.Pkg().Path() == "io" {
		return true // io.Pipe: the stand-in's (shadowPipes)
	}
	if _, ok := rn.shadowed[obj.Pkg().Path()]; !ok {
		return false
	}
	_, tls := rn.shadowed[shadowTLS]
	return tls || !strings.Contains(obj.Name(), "TLS")
}
