// Package netmain listens in TestMain, before any test and outside
// control: its listener is on the real network, so every test of the
// package runs there too.
package netmain

import (
	"bufio"
	"io"
	"net"
	"os"
	"testing"
)

var ln net.Listener

func TestMain(m *testing.M) {
	var err error
	if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		panic(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go io.Copy(c, c)
		}
	}()
	code := m.Run()
	ln.Close()
	os.Exit(code)
}

// The dial reaches TestMain's listener: both are real.
func TestDial(t *testing.T) {
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "hi\n")
	if line, err := bufio.NewReader(c).ReadString('\n'); line != "hi\n" || err != nil {
		t.Fatalf("echo %q, %v", line, err)
	}
}
