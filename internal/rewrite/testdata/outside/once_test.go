package outside

import (
	"sync"
	"testing"
)

// Package-level state set up once per process, as groupcache's tests
// register their groups: schedules run in one process, as go test -count
// runs do, so f runs once and the registration is not made twice.
var (
	setupOnce sync.Once
	groups    = map[string]bool{}
)

func registerGroup(name string) {
	if groups[name] {
		panic("duplicate registration of group " + name)
	}
	groups[name] = true
}

func TestPackageOnce(t *testing.T) {
	setupOnce.Do(func() { registerGroup("string-group") })
	if !groups["string-group"] {
		t.Fatal("not registered")
	}
}
