// Package testmain checks for leaks once all its tests ran.
package testmain

import (
	"testing"

	"example.com/neighbours/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }

// TestWorkers leaves nothing behind.
func TestWorkers(t *testing.T) {
	done := make(chan int)
	for i := range 4 {
		go func() { done <- i }()
	}
	for range 4 {
		<-done
	}
}
