package namedresult

import "testing"

func waitGivingUp(t *testing.T, wait func(func() error, <-chan struct{}) (int, error)) {
	quit := make(chan struct{})
	close(quit)
	code, err := wait(func() error { return nil }, quit)
	if err == nil && code != 1 {
		t.Errorf("work done, code %d", code)
	}
}

func TestWait(t *testing.T)      { waitGivingUp(t, Wait) }
func TestWaitFixed(t *testing.T) { waitGivingUp(t, WaitFixed) }
