package echo

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"
)

// Clients echo through the server at once; how many, and what they send,
// is drawn from math/rand.
func TestEcho(t *testing.T) {
	s, err := Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 1 + rand.Intn(3)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := fmt.Sprintf("client %d says %d\n", i, rand.Intn(1000))
			got, err := Echo(s.Addr(), msg)
			if err != nil || got != msg {
				t.Errorf("echo of %q: %q, %v", msg, got, err)
			}
		}()
	}
	wg.Wait()
}

// TestEchoDraws fails on purpose after its echoes, so that its schedule is
// saved as a trace: the network ops are in it, and how many echoes there
// are is drawn from math/rand.
func TestEchoDraws(t *testing.T) {
	s, err := Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k := 1 + rand.Intn(4)
	for i := range k {
		if _, err := Echo(s.Addr(), fmt.Sprintf("%d\n", i)); err != nil {
			t.Fatal(err)
		}
	}
	t.Errorf("drew %d echoes", k)
}
