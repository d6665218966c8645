// Package netmaybe's TestMain starts an echo server only when the
// -test.run pattern selects the examples, as etcd's clientv3 starts its
// cluster: whether it listens before the tests is decided at run time.
package netmaybe

import (
	"io"
	"net"
)

// Serve starts an echo server on a free port of this machine; stop closes
// it and waits for its goroutine.
func Serve() (addr string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			io.Copy(c, c)
			c.Close()
		}
	}()
	return ln.Addr().String(), func() { ln.Close(); <-done }, nil
}
