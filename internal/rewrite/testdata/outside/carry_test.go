package outside

import (
	"sync"
	"testing"
)

// Objects that package initialization made and used, outside control, meet
// the first schedule in the state initialization left them, as the memory
// beside them does, and as go test's runs find them.

// A semaphore whose tokens initialization put in its channel's buffer.
var tokens = make(chan struct{}, 2)

func init() {
	for range cap(tokens) {
		tokens <- struct{}{}
	}
}

func TestInitTokens(t *testing.T) {
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-tokens
			tokens <- struct{}{}
		}()
	}
	wg.Wait()
	if n := len(tokens); n != cap(tokens) {
		t.Fatalf("%d tokens, want %d", n, cap(tokens))
	}
}

// A registry made on first use, behind a sync.Once, which a package-level
// variable's initializer uses first.
type registry struct{ names map[string]bool }

var (
	registryOnce sync.Once
	theRegistry  *registry
)

func defaultRegistry() *registry {
	registryOnce.Do(func() { theRegistry = &registry{names: map[string]bool{}} })
	return theRegistry
}

var initRegistry = defaultRegistry()

func TestInitOnce(t *testing.T) {
	if defaultRegistry() != initRegistry {
		t.Fatal("the registry was made again")
	}
}
