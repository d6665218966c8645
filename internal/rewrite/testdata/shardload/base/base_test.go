package base

import "testing"

func TestGet(t *testing.T) {
	done := make(chan int)
	go func() { done <- Get() + Args() }()
	<-done
}
