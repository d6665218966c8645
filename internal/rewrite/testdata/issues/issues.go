// Package issues uses what the rewriter cannot control.
package issues

import (
	"net"
	"os/exec"
	"runtime"
	_ "unsafe"
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

type handle struct{}

func Uses(c net.Conn) int {
	h := &handle{}
	runtime.SetFinalizer(h, func(*handle) {})
	_ = exec.Command("true")
	if _, ok := c.(*net.TCPConn); ok {
		return 0
	}
	conn, _ := net.ListenPacket("udp", "localhost:1")
	_ = conn
	return runtime.NumGoroutine()
}

// DialFunc hands a Dialer's method out as a value: not controlled.
func DialFunc() any {
	d := &net.Dialer{}
	return d.DialContext
}

// Keys ranges over a map whose keys have no order that is the same in
// every process (pointers), so the seed cannot decide it.
func Keys(m map[*string]int) (n int) {
	for k := range m {
		n += len(*k)
	}
	return n
}
