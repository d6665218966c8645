package oldprintf

import "testing"

func TestLine(t *testing.T) {
	msg := Line("ready")
	t.Logf(msg)
	if msg != "ready" {
		t.Errorf(msg)
	}
}
