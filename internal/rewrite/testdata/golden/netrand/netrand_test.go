package netrand

import (
	"net"
	"os"
	"testing"
)

var ln net.Listener

// TestMain may listen (Serve notes at its entry that it ran): the tests
// are wrapped in MainNetTest, which decides at run time.
func TestMain(m *testing.M) {
	if os.Getenv("NETRAND_SERVE") != "" {
		ln, _ = Serve()
	}
	os.Exit(m.Run())
}

func TestServe(t *testing.T) {
	if ln == nil {
		t.Skip("no server")
	}
}
