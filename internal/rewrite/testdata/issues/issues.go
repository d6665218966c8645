// Package issues uses what the rewriter cannot control.
package issues

import (
	"net"
	"os/exec"
	"runtime"
	_ "unsafe"
)

//go:linkname procyield runtime.procyield
func procyield(cycles uint32)

type handle struct{}

func Uses(c net.Conn) int {
	h := &handle{}
	runtime.SetFinalizer(h, func(*handle) {})
	_ = exec.Command("true")
	if _, ok := c.(*net.TCPConn); ok {
		return 0
	}
	var s server
	s.l, _ = net.ListenTCP("tcp", nil)
	return runtime.NumGoroutine()
}

// server keeps a concrete listener: ListenTCP cannot return the in-memory
// network's.
type server struct{ l *net.TCPListener }

// ListenFunc hands a ListenConfig's method out as a value: not controlled.
func ListenFunc() any {
	lc := &net.ListenConfig{}
	return lc.Listen
}

// Keys ranges over a map whose keys have no order that is the same in
// every process (pointers), so the seed cannot decide it.
func Keys(m map[*string]int) (n int) {
	for k := range m {
		n += len(*k)
	}
	return n
}
