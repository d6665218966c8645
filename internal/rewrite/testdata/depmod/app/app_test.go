package app

import (
	"sync"
	"testing"

	"example.com/helper/netx"
	"example.com/helper/state"
)

func TestServer(t *testing.T) {
	s := state.Start() // the real network, two packages away
	defer s.Close()
}

func TestFetch(t *testing.T) {
	c := &netx.Client{URL: "http://127.0.0.1:1/"}
	_ = c.Fetch() // the real network, through a method
}

func TestLocal(t *testing.T) {
	state.Name = "app" // written here only: shared in state's rewrite too
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			state.Bump()
			_ = state.Label() + netx.Client{}.Local()
		}()
	}
	wg.Wait()
	if Total() != 2 {
		t.Fatal(Total())
	}
}
