// Package procenv keeps the settings the morpheus command hands a test
// process in its environment (MORPHEUS_*) once they are taken out of it, so
// that the test's child processes do not inherit them: a test that re-runs
// its own binary would otherwise run a child that reports to the parent's
// results file and saves into the parent's corpus. Package rt takes them
// when a rewritten test binary starts; morpheus's own code reads its
// settings through Lookup.
package procenv

import (
	"os"
	"strings"
	"sync"
)

var (
	mu    sync.Mutex
	taken = map[string]string{}
)

// Take removes from the process's environment the variables whose names
// keep accepts, and keeps their values for Lookup.
func Take(keep func(name string) bool) {
	mu.Lock()
	defer mu.Unlock()
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if keep(k) {
			taken[k] = v
			os.Unsetenv(k)
		}
	}
}

// Lookup returns the variable name: the environment's if it is set now (a
// test sets it), else the value Take kept, if any.
func Lookup(name string) (string, bool) {
	if v, ok := os.LookupEnv(name); ok {
		return v, true
	}
	mu.Lock()
	defer mu.Unlock()
	v, ok := taken[name]
	return v, ok
}

// Taken reports whether Take kept a variable whose name accept accepts.
func Taken(accept func(name string) bool) bool {
	mu.Lock()
	defer mu.Unlock()
	for k := range taken {
		if accept(k) {
			return true
		}
	}
	return false
}
