package netmaybe

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"

	"example.com/netmaybe/journal"
)

// addr is the server TestMain started, if it did.
var addr string

func TestMain(m *testing.M) {
	if journal.Enabled() {
		fmt.Println("journal socket found")
	}
	serve := false
	for _, arg := range os.Args {
		if r, ok := strings.CutPrefix(arg, "-test.run="); ok {
			serve = strings.Contains(r, "Example")
		}
	}
	stop := func() {}
	if serve {
		var err error
		if addr, stop, err = Serve(); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	stop()
	// As etcd's CheckLeakedGoroutine: after the tests, any goroutine but
	// this one is a leak.
	if code == 0 && leaked() {
		os.Exit(1)
	}
	os.Exit(code)
}

// leaked reports whether a goroutine other than the caller is running,
// listing them on stderr.
func leaked() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var left []string
	for _, g := range strings.Split(strings.TrimSpace(string(buf)), "\n\n") {
		// A test's goroutine may still be exiting after m.Run returns
		// (its stack is runtime.goexit's alone): not a leak, as etcd's
		// filter has it.
		if !strings.Contains(g, "netmaybe.leaked(") && !strings.Contains(g, "runtime.goexit1(") {
			left = append(left, g)
		}
	}
	if len(left) == 0 {
		return false
	}
	fmt.Fprintf(os.Stderr, "Too many goroutines running after all test(s):\n%s\n", strings.Join(left, "\n\n"))
	return true
}

// TestEcho talks to TestMain's server if there is one (then on the real
// network), or to one of its own.
func TestEcho(t *testing.T) {
	a := addr
	if a == "" {
		var stop func()
		var err error
		if a, stop, err = Serve(); err != nil {
			t.Fatal(err)
		}
		defer stop()
	}
	c, err := net.Dial("tcp", a)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "hi\n")
	line, err := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if line != "hi\n" || err != nil {
		t.Fatalf("echo %q, %v", line, err)
	}
}

func ExampleServe() {
	fmt.Println(addr != "")
	// Output: true
}
