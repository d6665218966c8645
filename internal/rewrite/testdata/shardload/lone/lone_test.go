package lone

import "testing"

func TestInc(t *testing.T) {
	done := make(chan bool)
	go func() { Inc(); done <- true }()
	Inc()
	<-done
}
