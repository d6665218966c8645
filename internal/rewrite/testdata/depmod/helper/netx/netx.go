// Package netx reaches the real network: an HTTP server, and a client's
// method.
package netx

import (
	"net/http"
	"net/http/httptest"
)

// Serve starts a server on the real network.
func Serve() *httptest.Server {
	return httptest.NewServer(http.NotFoundHandler())
}

// Client fetches pages.
type Client struct{ URL string }

// Fetch gets the client's page on the real network.
func (c *Client) Fetch() error {
	resp, err := http.Get(c.URL)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

// Local reaches nothing.
func (c Client) Local() string { return c.URL }
