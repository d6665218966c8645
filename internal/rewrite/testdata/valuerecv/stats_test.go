package valuerecv

import "testing"

// TestValueReceiver reads the count while a goroutine counts: s.Hits()
// copies *s, a plain read unordered with the goroutine's atomic add (go
// test -race reports it).
func TestValueReceiver(t *testing.T) {
	s := &Stats{name: "a"}
	done := make(chan bool)
	go func() {
		s.Hit()
		close(done)
	}()
	_ = s.Hits()
	<-done
}

// TestPointerReceiver reads it atomically where it is: no race.
func TestPointerReceiver(t *testing.T) {
	s := &Stats{name: "a"}
	done := make(chan bool)
	go func() {
		s.Hit()
		close(done)
	}()
	_ = s.HitsLoaded()
	<-done
}

// TestValueReceiverSecondField: the same race on a second field, which
// only the copy's whole range covers.
func TestValueReceiverSecondField(t *testing.T) {
	s := &Tagged{name: "a"}
	done := make(chan bool)
	go func() {
		s.Hit()
		close(done)
	}()
	_ = s.Hits()
	<-done
}
