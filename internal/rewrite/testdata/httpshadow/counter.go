// Package httpshadow is a counter served over HTTP: its tests serve it
// with httptest and call it with net/http's client.
package httpshadow

import (
	"fmt"
	"net/http"
	"sync"
)

// Counter counts the requests it serves.
type Counter struct {
	mu sync.Mutex
	n  int
}

// ServeHTTP counts the request and writes the count.
func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	fmt.Fprintf(w, "%d", n)
}

// Racy counts without its lock.
type Racy struct{ n int }

// ServeHTTP counts the request, unlocked: two requests at once race.
func (c *Racy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.n++
	fmt.Fprintf(w, "%d", c.n)
}
