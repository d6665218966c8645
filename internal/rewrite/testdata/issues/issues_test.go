package issues

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestServe reaches httptest's server through a helper: it runs on the
// real network.
func TestServe(t *testing.T) {
	s := serve()
	defer s.Close()
}

func serve() *httptest.Server {
	return httptest.NewServer(http.NotFoundHandler())
}

// TestIdle only closes the idle connections of net/http's default client
// and transport, as leak checks copied from net/http's tests do before they
// count goroutines: no network, so it runs under control.
func TestIdle(t *testing.T) {
	defer afterTest()
}

func afterTest() {
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	(http.DefaultClient).CloseIdleConnections()
}

// TestRoundTrip sends through the default transport: the real network.
func TestRoundTrip(t *testing.T) {
	req, _ := http.NewRequest("GET", "http://example.com/", nil)
	http.DefaultTransport.RoundTrip(req)
}
