package rewrite

import (
	"bytes"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// With a shadow, rewritten files import the shadows under the names they
// used, lines kept, and net/http's servers and clients are no reason to
// run a test on the real network; without one, they are.
func TestShadowImports(t *testing.T) {
	shadow := map[string]string{"net/http": ShadowPath("net/http"), "net/http/httptest": ShadowPath("net/http/httptest")}
	for i, with := range []bool{false, true, false} {
		cfg := LoadConfig{Dir: "testdata/httpshadow", Patterns: []string{"./..."}}
		if i > 0 {
			cfg.Shadow = shadow
		}
		if i == 2 {
			// A package left as it is that imports net/http (here
			// excluded) keeps the load on the standard library's.
			cfg.Exclude = []string{"example.com/httpshadow/serve"}
		}
		pkgs, err := Load(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var test *File
		for _, f := range pkgs[0].Files {
			if f.Out == nil {
				t.Fatalf("%s: not rewritten", f.Path)
			}
			checkLines(t, f)
			imported := bytes.Contains(f.Out, []byte(`http "morpheus.shadow/net/http"`))
			if imported != with {
				t.Errorf("shadow %v: %s imports the shadow: %v", with, f.Path, imported)
			}
			if strings.HasSuffix(f.Path, "counter_test.go") {
				test = f
			}
		}
		if got := bytes.Contains(test.Out, []byte(`httptest "morpheus.shadow/net/http/httptest"`)); got != with {
			t.Errorf("shadow %v: httptest's shadow imported: %v", with, got)
		}
		if got := bytes.Contains(test.Out, []byte("RealTest")); got == with {
			t.Errorf("shadow %v: a test runs on the real network: %v\n%s", with, got, test.Out)
		}
	}
}

// A standard file's shadow: imports of shadowed packages redirected (a
// vendored package's under its module path), linknames and declarations
// without a body blanked, io's pipe the stand-in's, every line where it
// was (a declaration that keeps io used follows them).
func TestShadowFile(t *testing.T) {
	src := `package http

import (
	"fmt"
	"golang.org/x/net/idna"
	_ "unsafe"
	gd "internal/godebug"
	"io"
)

//go:linkname bad net/http.bad
func bad(int) int

func F() { fmt.Println(idna.Punycode, gd.New) }

func G(w *io.PipeWriter) { r, _ := io.Pipe(); r.Close() }
`
	m := map[string]string{"vendor/golang.org/x/net/idna": ShadowPath("vendor/golang.org/x/net/idna"),
		"internal/godebug": ShadowPath("internal/godebug")}
	out, err := shadowFile("x.go", []byte(src), m)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{`idna "morpheus.shadow/stdvendor/golang.org/x/net/idna"`, `gd "morpheus.shadow/internal/godebug"`, `"fmt"`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in:\n%s", want, got)
		}
	}
	for _, want := range []string{"package http; import __iopipe \"morpheus.shadow/iopipe\"\n", "func G(w *__iopipe.PipeWriter) { r, _ := __iopipe.Pipe()", "\nvar _ io.Reader\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "linkname") || strings.Contains(got, "func bad") {
		t.Errorf("linkname or body-less declaration kept:\n%s", got)
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n")+2 || !strings.Contains(strings.Split(got, "\n")[13], "func F()") {
		t.Errorf("lines moved:\n%s", got)
	}
}

// A package of another module that imports net/http (testdata/depmod's
// helper, a replacement: the first load sees it as export data only, the
// second with its syntax) is rewritten onto the shadow with the rest: it
// is no package left as it is, and the load keeps the shadow.
func TestShadowReplacedModule(t *testing.T) {
	shadow := map[string]string{"net/http": ShadowPath("net/http"), "net/http/httptest": ShadowPath("net/http/httptest")}
	pkgs, err := Load(LoadConfig{Dir: "testdata/depmod", Patterns: []string{"./..."}, Shadow: shadow})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range pkgs {
		if p.Path != "example.com/helper/netx" {
			continue
		}
		for _, f := range p.Files {
			found = true
			if f.Out == nil || !bytes.Contains(f.Out, []byte(`"morpheus.shadow/net/http"`)) {
				t.Errorf("%s does not import the shadow:\n%s", f.Path, f.Out)
			}
		}
	}
	if !found {
		t.Errorf("example.com/helper/netx not in the load")
	}
}

// Tests over TLS (httptest's TLS servers, crypto/tls's connections,
// listeners and dialers) run under control when crypto/tls's stand-in is
// in the shadow, and once on the real network when it is not.
func TestShadowTLSImports(t *testing.T) {
	for _, tls := range []bool{false, true} {
		shadow := map[string]string{"net/http": ShadowPath("net/http"), "net/http/httptest": ShadowPath("net/http/httptest")}
		if tls {
			shadow[shadowTLS] = ShadowPath(shadowTLS)
		}
		pkgs, err := Load(LoadConfig{Dir: "testdata/tlsshadow", Patterns: []string{"."}, Shadow: shadow})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range pkgs[0].Files {
			checkLines(t, f)
			if got := bytes.Contains(f.Out, []byte(`tls "morpheus.shadow/crypto/tls"`)); got != tls {
				t.Errorf("stand-in %v: %s imports it: %v", tls, f.Path, got)
			}
			if strings.HasSuffix(f.Path, "echo.go") && !bytes.Contains(f.Out, []byte("r, w := __iopipe.Pipe()")) {
				t.Errorf("io.Pipe is not the stand-in's:\n%s", f.Out)
			}
			if !strings.HasSuffix(f.Path, "_test.go") {
				continue
			}
			if got := bytes.Contains(f.Out, []byte("RealTest")); got == tls {
				t.Errorf("stand-in %v: a test runs on the real network: %v\n%s", tls, got, f.Out)
			}
		}
	}
}

// crypto/tls's stand-in declares Conn, Dialer and the functions that make
// connections itself, and every other exported name as crypto/tls's.
func TestShadowTLSSource(t *testing.T) {
	src, err := shadowTLSSource(t.Context(), ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := string(src)
	for _, want := range []string{"\ntype Config = stdtls.Config\n", "\nconst VersionTLS13 = stdtls.VersionTLS13\n",
		"\nfunc X509KeyPair(p0 []byte, p1 []byte) (stdtls.Certificate, error) {", "\ntype Conn struct {", "\ntype Dialer struct {",
		"\nfunc Client(conn net.Conn, config *Config) *Conn {"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in the stand-in", want)
		}
	}
	for _, unwanted := range []string{"type Conn =", "type Dialer =", "func Dial(p0", "func NewListener(p0"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("%q in the stand-in", unwanted)
		}
	}
	// Every method of crypto/tls's Conn and Dialer has the stand-in's
	// (a Go release that adds one needs it here).
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes}, shadowTLS)
	if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil {
		t.Fatalf("loading %s: %v %v", shadowTLS, pkgs, err)
	}
	for _, name := range []string{"Conn", "Dialer"} {
		ms := types.NewMethodSet(types.NewPointer(pkgs[0].Types.Scope().Lookup(name).Type()))
		for m := range ms.Methods() {
			if m.Obj().Exported() && !strings.Contains(got, "func ("+strings.ToLower(name[:1])+" *"+name+") "+m.Obj().Name()+"(") {
				t.Errorf("the stand-in's %s has no method %s", name, m.Obj().Name())
			}
		}
	}
}

// A package of another module that imports net/http (here its cookie jar)
// is loaded from export data by the first load and from its syntax by the
// second, and rewritten: it keeps no load on the standard library's
// net/http (x/net's publicsuffix kept resty's so).
func TestShadowOtherModule(t *testing.T) {
	shadow := map[string]string{"net/http": ShadowPath("net/http"), "net/http/cookiejar": ShadowPath("net/http/cookiejar"),
		"net/http/httptest": ShadowPath("net/http/httptest")}
	pkgs, err := Load(LoadConfig{Dir: "testdata/shadowdep", Patterns: []string{"."}, Shadow: shadow})
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, p := range pkgs {
		for _, f := range p.Files {
			if !strings.HasSuffix(f.Path, "jar_test.go") && !strings.HasSuffix(f.Path, "suffix.go") {
				continue
			}
			files++
			if !bytes.Contains(f.Out, []byte(`"morpheus.shadow/net/http/cookiejar"`)) {
				t.Errorf("%s does not import the shadow:\n%s", f.Path, f.Out)
			}
			if bytes.Contains(f.Out, []byte("RealTest")) {
				t.Errorf("%s: a test runs on the real network:\n%s", f.Path, f.Out)
			}
		}
	}
	if files != 2 {
		t.Errorf("%d of the 2 files rewritten", files)
	}
}
