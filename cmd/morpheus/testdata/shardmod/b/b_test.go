package b

import "testing"

func TestChan(t *testing.T) {
	ch := make(chan int)
	done := make(chan bool)
	go func() {
		for v := range ch {
			_ = v
		}
		done <- true
	}()
	for i := range 5 {
		ch <- i
	}
	close(ch)
	<-done
}
