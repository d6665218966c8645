package leaf

import "testing"

func TestPut(t *testing.T) {
	var b Box
	done := make(chan bool)
	go func() { b.Put(1); done <- true }()
	b.Put(2)
	<-done
}

func TestLimit(t *testing.T) {
	Limit = 5
	if !Under(4) {
		t.Fatal("4 is under 5")
	}
}
