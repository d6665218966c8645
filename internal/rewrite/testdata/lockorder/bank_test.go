package lockorder

import (
	"sync"
	"testing"
)

func TestTransfers(t *testing.T) {
	a, b := NewAccount(100), NewAccount(100)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Transfer(a, b, 10) }()
	go func() { defer wg.Done(); Transfer(b, a, 20) }()
	wg.Wait()
	if got := a.Balance() + b.Balance(); got != 200 {
		t.Fatalf("money created or lost: %d", got)
	}
}

func TestBalance(t *testing.T) {
	a := NewAccount(5)
	done := make(chan int)
	go func() { done <- a.Balance() }()
	if got := <-done; got != 5 {
		t.Fatalf("balance %d, want 5", got)
	}
}
