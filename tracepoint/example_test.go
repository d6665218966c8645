package tracepoint_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/morpheus-go/morpheus/internal/ordering/server"
	"github.com/morpheus-go/morpheus/tracepoint"
)

// Outside "morpheus fuzz" (MORPHEUS_SOCKET unset) a tracepoint costs nothing
// and never blocks.
func ExampleHit() {
	os.Unsetenv(tracepoint.EnvSocket)
	err := tracepoint.Hit("config-loaded", "worker=2")
	fmt.Println(err)
	// Output: <nil>
}

// A process connects to the run's ordering server, here started by hand, and
// reports its tracepoints; the server records them in the order it released
// them.
func ExampleClient_Hit() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	srv, _ := server.Start(filepath.Join(dir, "s"), server.Config{})
	cl, err := tracepoint.Connect(srv.Socket(), "worker1")
	if err != nil {
		fmt.Println(err)
		return
	}
	cl.Hit("register")
	cl.Hit("result", "job=12")
	cl.Close()
	fmt.Println(srv.Stop().Trace)
	// Output: [worker1:register#0 worker1:result{job=12}#0]
}
