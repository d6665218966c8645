// Package serve hands out a handler: a package a run may leave as it is
// (-exclude), which then exchanges the standard library's net/http types.
package serve

import "net/http"

// Handler answers every request with its path.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(r.URL.Path)) })
}
