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
