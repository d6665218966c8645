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
	conn, _ := net.Dial("tcp", "localhost:1")
	_ = conn
	return runtime.NumGoroutine()
}
