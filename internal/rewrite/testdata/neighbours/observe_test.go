package neighbours

import (
	"testing"

	"example.com/neighbours/assert"
)

// TestChanLen reads a channel's length by reflection, as testify's
// assert.Len does: it is the length of the values sent and not received.
func TestChanLen(t *testing.T) {
	ch := make(chan struct{}, 2)
	ch <- struct{}{}
	assert.Len(t, ch, 1)
	done := make(chan bool)
	go func() {
		ch <- struct{}{}
		close(done)
	}()
	<-done
	assert.Len(t, ch, 2)
	<-ch
	assert.Len(t, ch, 1)
}
