// Package lockorder is a small bank with a seeded lock-order inversion:
// Transfer locks the payer's account first, so two opposite transfers can
// each hold one lock and wait for the other's. Nothing here knows about
// morpheus; morpheus rewrite finds the deadlock in the unmodified package.
package lockorder

import "sync"

// Account is a balance guarded by its own lock.
type Account struct {
	mu      sync.Mutex
	balance int
}

// NewAccount opens an account.
func NewAccount(balance int) *Account { return &Account{balance: balance} }

// Balance returns the account's balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Transfer moves n from one account to another. The bug: it locks from,
// then to; a transfer the other way locks them in the opposite order.
func Transfer(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}
