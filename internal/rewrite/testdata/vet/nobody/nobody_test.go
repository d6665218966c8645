package nobody

import "testing"

func TestPing(t *testing.T) {
	if !<-Ping() {
		t.Fatal("no answer")
	}
}
