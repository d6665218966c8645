package sctplain

import (
	"sync"
	"testing"
)

// account: balance x = 1; a deposit of y = 2 and a withdrawal of z = 4, each
// under the mutex; a checker, started first, expects under the mutex that
// once both are done the balance is (x - y) - z, which it never is: it fails
// whenever it runs last. Fixed: the checker expects (x + y) - z.
func account(t *testing.T, fixed bool) {
	const x, y, z = 1, 2, 4
	var m sync.Mutex
	balance := x // guarded by m
	deposited, withdrawn := false, false
	want := (x - y) - z
	if fixed {
		want = (x + y) - z
	}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		m.Lock()
		defer m.Unlock()
		if deposited && withdrawn && balance != want {
			t.Errorf("account: balance %d, want %d", balance, want)
		}
	}()
	go func() {
		defer wg.Done()
		m.Lock()
		defer m.Unlock()
		balance += y
		deposited = true
	}()
	go func() {
		defer wg.Done()
		m.Lock()
		defer m.Unlock()
		balance -= z
		withdrawn = true
	}()
	wg.Wait()
}

func TestAccount(t *testing.T)      { account(t, false) }
func TestAccountFixed(t *testing.T) { account(t, true) }
