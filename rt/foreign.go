package rt

import (
	"sort"
	"sync"

	"github.com/morpheus-go/morpheus/internal/core"
)

var (
	foreignMu    sync.Mutex
	foreignSites = map[string]bool{}
)

// noteForeign records the location of an operation on a foreign channel.
func noteForeign(pc uintptr) {
	w := core.Where(pc)
	foreignMu.Lock()
	foreignSites[w] = true
	foreignMu.Unlock()
}

// Foreign returns the locations (file:line) where rewritten code operated
// on a channel it did not make, sorted: those operations polled instead of
// being controlled.
func Foreign() []string {
	foreignMu.Lock()
	defer foreignMu.Unlock()
	s := make([]string, 0, len(foreignSites))
	for w := range foreignSites {
		s = append(s, w)
	}
	sort.Strings(s)
	return s
}
