package httpshadow

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestPeer runs its own binary as a peer that serves HTTP on a free port,
// and calls it: the peer is another process, on the real network, so the
// test must be on it too, whatever its client's package.
func TestPeer(t *testing.T) {
	if addr := os.Getenv("HTTPSHADOW_PEER"); addr != "" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, "peer")
		}))
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeer$")
	cmd.Env = append(os.Environ(), "HTTPSHADOW_PEER="+addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for range 1500 { // up to a minute for the peer to start
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) != "peer" {
				t.Fatalf("the peer said %q", b)
			}
			return
		}
		time.Sleep(40 * time.Millisecond)
	}
	t.Fatal("the peer never answered")
}
