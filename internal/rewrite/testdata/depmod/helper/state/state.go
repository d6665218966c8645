// Package state holds globals that its importers' tests write, and starts
// a server through another package of its module.
package state

import (
	"net/http/httptest"
	"sync"

	"example.com/helper/netx"
)

// Name is written by the tests of another module only.
var Name = "state"

// Count is written here.
var Count int

var mu sync.Mutex

// Bump counts.
func Bump() {
	mu.Lock()
	Count++
	mu.Unlock()
}

// Label reads Name.
func Label() string { return Name }

// Start starts a server on the real network.
func Start() *httptest.Server { return netx.Serve() }
